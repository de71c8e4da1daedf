/**
 * The history's own time. The generator sets it before each step, so the
 * `now` a command carries and the `recordedAt` the store stamps on its events
 * (read from Effect's Clock) are the same simulated moment, and a seed gives
 * the same times on every run.
 */
import { type Clock, type Duration, Effect } from "effect"

export class SimulatedClock implements Clock.Clock {
  #nowMs: number

  constructor(startMs: number) {
    this.#nowMs = startMs
  }

  get nowMs(): number {
    return this.#nowMs
  }

  /** Moves to `ms`; never backwards, so that recorded times rise with the log. */
  advanceTo(ms: number): void {
    if (ms > this.#nowMs) this.#nowMs = ms
  }

  currentTimeMillisUnsafe(): number {
    return this.#nowMs
  }
  readonly currentTimeMillis = Effect.sync(() => this.#nowMs)
  currentTimeNanosUnsafe(): bigint {
    return BigInt(this.#nowMs) * 1_000_000n
  }
  readonly currentTimeNanos = Effect.sync(() => this.currentTimeNanosUnsafe())
  monotonicTimeNanosUnsafe(): bigint {
    return this.currentTimeNanosUnsafe()
  }
  readonly monotonicTimeNanos = Effect.sync(() => this.currentTimeNanosUnsafe())
  /** Simulated time does not pass by waiting: nothing in a generated history sleeps. */
  sleep(_duration: Duration.Duration): Effect.Effect<void> {
    return Effect.void
  }
}
