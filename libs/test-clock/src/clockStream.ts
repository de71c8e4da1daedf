/**
 * A merchant's sandbox test clock as an event-sourced stream: each advance
 * is recorded (`TestClockAdvanced`, with the offset it leads to), so the
 * merchant's time survives a restart and the audit sees every move. The
 * clock only moves forward: recorded history never runs backwards.
 */
import { type Aggregate, makeEventCodec } from "@mizan/eventsourcing"
import { type BrokenRule, type Rejection, reject, streamIdOf, Timestamp } from "@mizan/kernel"
import { Result, Schema } from "effect"

/** A year: far enough for every window of the spec (180-day refunds), bounded so that a typo cannot wreck a sandbox. */
export const advanceMaxMinutes = 366 * 24 * 60

export const TestClockAdvanced = Schema.TaggedStruct("TestClockAdvanced", {
  merchantId: Schema.String,
  /** How far this advance moved the merchant's time. */
  byMs: Schema.Int.check(Schema.isGreaterThan(0)),
  /** The merchant's offset from real time after it. */
  offsetMs: Schema.Int.check(Schema.isGreaterThan(0)),
  /** The real time it was asked at. */
  at: Timestamp,
})
export const TestClockEvent = Schema.Union([TestClockAdvanced])
export type TestClockEvent = typeof TestClockEvent.Type

export interface AdvanceTestClock {
  readonly merchantId: string
  readonly byMs: number
  readonly at: Timestamp
}

export interface TestClockState {
  readonly offsetMs: number
  readonly advances: number
}

export const testClock: Aggregate<AdvanceTestClock, TestClockEvent, TestClockState, Rejection> = {
  initialState: { offsetMs: 0, advances: 0 },
  decide: ({ merchantId, byMs, at }, state) =>
    Number.isSafeInteger(byMs) && byMs > 0 && byMs <= advanceMaxMinutes * 60_000
      ? Result.succeed([{ _tag: "TestClockAdvanced", merchantId, byMs, offsetMs: state.offsetMs + byMs, at }])
      : Result.fail(
          reject("INVALID_PARAMETER", `the test clock moves forward only, by 1 to ${advanceMaxMinutes} minutes`),
        ),
  evolve: (state, event) => ({ offsetMs: event.offsetMs, advances: state.advances + 1 }),
  codec: makeEventCodec(TestClockEvent, { TestClockAdvanced: { current: 1 } }),
}

export const testClockStreamPrefix = "sandboxClock/"

export const testClockStreamId = (merchantId: string) => streamIdOf("sandboxClock", merchantId)

/** What the audit checks after every event: each advance adds to the offset, which never shrinks. */
export const testClockInvariants = (state: TestClockState): ReadonlyArray<BrokenRule> =>
  state.offsetMs < 0 || !Number.isSafeInteger(state.offsetMs)
    ? [{ rule: "a test clock only moves forward", detail: `offset ${state.offsetMs} is not a forward move` }]
    : []
