import { it } from "@effect/vitest"
import { handleCommand, layerMemory, type RecordedEvent } from "@mizan/eventsourcing"
import { minuteMs, timestamp } from "@mizan/kernel"
import { Clock, Effect, Result } from "effect"
import { describe, expect } from "vitest"
import { advanceMaxMinutes, MerchantClocks, testClock, testClockInvariants, testClockStreamId } from "../src/index.ts"

const at = timestamp(Date.UTC(2026, 10, 24))

describe("a merchant's test clock stream", () => {
  it("records each advance with the offset it leads to", () => {
    const first = Result.getOrThrow(
      testClock.decide({ merchantId: "M1", byMs: 600 * minuteMs, at }, testClock.initialState),
    )
    const state = first.reduce(testClock.evolve, testClock.initialState)
    const second = Result.getOrThrow(testClock.decide({ merchantId: "M1", byMs: 5 * minuteMs, at }, state))
    expect(second).toEqual([
      { _tag: "TestClockAdvanced", merchantId: "M1", byMs: 5 * minuteMs, offsetMs: 605 * minuteMs, at },
    ])
    expect(testClockInvariants(second.reduce(testClock.evolve, state))).toEqual([])
  })

  it.each([0, -minuteMs, 0.5, (advanceMaxMinutes + 1) * minuteMs])(
    "never moves back or by nothing: %d ms is refused",
    (byMs) => {
      const decided = testClock.decide({ merchantId: "M1", byMs, at }, testClock.initialState)
      expect(Result.isFailure(decided) && decided.failure.code).toBe("INVALID_PARAMETER")
    },
  )
})

/** A clock whose real time is whatever the test sets. */
const realClockAt = (ms: { now: number }): Clock.Clock => ({
  currentTimeMillisUnsafe: () => ms.now,
  currentTimeMillis: Effect.sync(() => ms.now),
  currentTimeNanosUnsafe: () => BigInt(ms.now) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => BigInt(ms.now) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => 0n,
  monotonicTimeNanos: Effect.succeed(0n),
  sleep: () => Effect.void,
})

const advanced = (merchantId: string, offsetMs: number): RecordedEvent => ({
  id: `${merchantId}-${offsetMs}`,
  streamId: testClockStreamId(merchantId),
  type: "TestClockAdvanced",
  schemaVersion: 1,
  data: { merchantId, byMs: offsetMs, offsetMs, at },
  metadata: { recordedAt: at },
  streamVersion: 1,
  globalPosition: 1n,
})

describe("every merchant's time in one process", () => {
  it("is real time plus the merchant's offset, for that merchant alone, and only grows", () => {
    const real = { now: 1_000_000 }
    const clocks = new MerchantClocks(realClockAt(real))
    const moved: Array<string> = []
    clocks.onAdvance((merchantId) => moved.push(merchantId))
    clocks.observe(advanced("A", 600 * minuteMs))
    expect(clocks.nowOf("A")).toBe(1_000_000 + 600 * minuteMs)
    expect(clocks.nowOf("B")).toBe(1_000_000)
    // The log read again, or another process's older view: nothing goes back.
    clocks.observe(advanced("A", 5 * minuteMs))
    clocks.offsetReached("A", 0)
    expect(clocks.offsetOf("A")).toBe(600 * minuteMs)
    expect(moved).toEqual(["A"])
    real.now += 1_000
    expect(clocks.clockOf("A").currentTimeMillisUnsafe()).toBe(1_001_000 + 600 * minuteMs)
    expect(clocks.realNow()).toBe(1_001_000)
  })

  it.effect(
    "learns a merchant's clock from its stream the first time the merchant is seen: a restart keeps its time",
    () =>
      Effect.gen(function* () {
        yield* handleCommand(testClock, testClockStreamId("A"), { merchantId: "A", byMs: 60 * minuteMs, at })
        const restarted = new MerchantClocks(yield* Clock.Clock)
        expect(restarted.offsetOf("A")).toBe(0)
        yield* restarted.ensureLoaded("A")
        expect(restarted.offsetOf("A")).toBe(60 * minuteMs)
      }).pipe(Effect.provide(layerMemory)),
  )
})
