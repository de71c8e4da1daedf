/**
 * Every merchant's sandbox time in one process: real time plus the
 * merchant's offset, the offset loaded from its clock stream the first time
 * the merchant is seen and kept current from the log (`observe`) and from
 * this process's own advances. Real time comes in as Effect's `Clock`, so
 * the tests can run it on a test clock.
 *
 * Offsets only grow (the log can be read again, or out of order across
 * processes), so a merchant's time is never earlier than it was.
 */
import { type EventStore, loadAggregate, type RecordedEvent, type StoreError } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { type Clock, type Duration, Effect } from "effect"
import { testClock, testClockStreamId } from "./clockStream.ts"

export class MerchantClocks {
  private readonly offsets = new Map<string, number>()
  private readonly listeners = new Set<(merchantId: string) => void>()

  private readonly realClock: Clock.Clock

  constructor(realClock: Clock.Clock) {
    this.realClock = realClock
  }

  /** The merchant's offset from real time; 0 for a merchant whose clock never moved (or is not loaded yet). */
  offsetOf(merchantId: string): number {
    return this.offsets.get(merchantId) ?? 0
  }

  /** Real time, whatever any merchant's clock says: what logs and the requestTime window use. */
  realNow(): number {
    return this.realClock.currentTimeMillisUnsafe()
  }

  /** The merchant's time now. */
  nowOf(merchantId: string): Timestamp {
    return (this.realNow() + this.offsetOf(merchantId)) as Timestamp
  }

  /** Takes an offset the merchant's clock reached; a smaller one than known changes nothing. */
  offsetReached(merchantId: string, offsetMs: number): void {
    if (offsetMs <= this.offsetOf(merchantId)) return
    this.offsets.set(merchantId, offsetMs)
    for (const listener of this.listeners) listener(merchantId)
  }

  /** Keeps the offsets current from the log: any process's advance reaches every process that follows it. */
  observe(event: RecordedEvent): void {
    if (event.type !== "TestClockAdvanced") return
    const { merchantId, offsetMs } = event.data as { readonly merchantId: string; readonly offsetMs: number }
    this.offsetReached(merchantId, offsetMs)
  }

  /** Called with the merchant whose clock moved forward. */
  onAdvance(listener: (merchantId: string) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private readonly loaded = new Set<string>()

  /** Reads the merchant's clock stream the first time the merchant is seen, so a restart keeps its time. */
  ensureLoaded(merchantId: string): Effect.Effect<void, StoreError, EventStore> {
    if (this.loaded.has(merchantId)) return Effect.void
    return Effect.map(loadAggregate(testClock, testClockStreamId(merchantId)), ({ state }) => {
      this.loaded.add(merchantId)
      this.offsetReached(merchantId, state.offsetMs)
    })
  }

  /**
   * The merchant's time as Effect's `Clock`: run a merchant's work with it
   * and everything that reads the clock (the store's recordedAt, a
   * decision's `now`) reads the merchant's time. Sleeping stays on real time.
   */
  clockOf(merchantId: string): Clock.Clock {
    const real = this.realClock
    return {
      currentTimeMillisUnsafe: () => this.nowOf(merchantId),
      currentTimeMillis: Effect.sync(() => this.nowOf(merchantId) as number),
      currentTimeNanosUnsafe: () => BigInt(this.nowOf(merchantId)) * 1_000_000n,
      currentTimeNanos: Effect.sync(() => BigInt(this.nowOf(merchantId)) * 1_000_000n),
      monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
      monotonicTimeNanos: real.monotonicTimeNanos,
      sleep: (duration: Duration.Duration) => real.sleep(duration),
    } as Clock.Clock
  }
}
