import { Clock, Duration, Effect, Layer } from "effect"

/**
 * The service's clock. In production it is the wall clock. In sandbox mode a
 * merchant can move it forward (Stripe's test clocks) to reach expiry, the
 * 180-day refund window or notification retries without waiting: the
 * offset applies to every reader of Effect's `Clock` in the process, the
 * notifier included.
 */
export class SandboxClock implements Clock.Clock {
  private offsetMs = 0
  private readonly listeners = new Set<() => void>()

  /** Moves the service's time forward by `ms` (never backward: recorded history stays in order). */
  advance(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new RangeError(`the clock only moves forward, by whole milliseconds: ${ms}`)
    this.offsetMs += ms
    for (const listener of this.listeners) listener()
  }

  get offset(): number {
    return this.offsetMs
  }

  /** Called after each advance, so that waiting work (expiry, retries) can look again. */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  currentTimeMillisUnsafe(): number {
    return Date.now() + this.offsetMs
  }
  readonly currentTimeMillis = Effect.sync(() => this.currentTimeMillisUnsafe())
  currentTimeNanosUnsafe(): bigint {
    return BigInt(this.currentTimeMillisUnsafe()) * 1_000_000n
  }
  readonly currentTimeNanos = Effect.sync(() => this.currentTimeNanosUnsafe())
  monotonicTimeNanosUnsafe(): bigint {
    return process.hrtime.bigint()
  }
  readonly monotonicTimeNanos = Effect.sync(() => this.monotonicTimeNanosUnsafe())

  /**
   * Sleeps on service time: wakes when the real time has passed, or earlier
   * when an advance of the clock has reached the wake-up time.
   */
  sleep(duration: Duration.Duration): Effect.Effect<void> {
    const wakeAt = this.currentTimeMillisUnsafe() + Duration.toMillis(duration)
    return Effect.callback<void>((resume) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const check = () => {
        const left = wakeAt - this.currentTimeMillisUnsafe()
        if (timer !== undefined) clearTimeout(timer)
        if (left <= 0) {
          unsubscribe()
          resume(Effect.void)
        } else timer = setTimeout(check, Math.min(left, 2 ** 31 - 1))
      }
      const unsubscribe = this.onAdvance(check)
      check()
      return Effect.sync(() => {
        if (timer !== undefined) clearTimeout(timer)
        unsubscribe()
      })
    })
  }
}

/** Provides a sandbox clock as Effect's `Clock` to everything built on this layer. */
export const layerSandboxClock = (clock: SandboxClock): Layer.Layer<never> => Layer.succeed(Clock.Clock, clock)
