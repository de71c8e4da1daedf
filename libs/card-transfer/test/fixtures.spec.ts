import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fold, type SerializedEvent } from "@mizan/eventsourcing"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { BankCardTransfer } from "../src/index.ts"

const { aggregate, invariants, streamId } = BankCardTransfer

interface Fixture {
  readonly streams: ReadonlyArray<{ readonly streamId: string; readonly events: ReadonlyArray<SerializedEvent> }>
}
const fixture: Fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "bankCardTransfer.events.json"), "utf8"),
)
const states = new Map(
  fixture.streams.map(({ streamId, events }) => [
    streamId,
    fold(
      aggregate,
      events.map((event) => Result.getOrThrow(aggregate.codec.decode(event))),
    ),
  ]),
)

describe("recorded bank card transfer events replay", () => {
  it("to the statuses they were recorded in, every invariant holding", () => {
    expect(Object.fromEntries([...states].map(([id, state]) => [id, state.status]))).toEqual({
      [streamId("M1", "K-success")]: "SUCCESS",
      [streamId("M1", "K-created")]: "CREATED",
      [streamId("M1", "K-failure")]: "FAILURE",
      [streamId("M1", "K-bank-fail")]: "BANK_FAIL",
    })
    for (const state of states.values()) expect(invariants(state)).toEqual([])
    expect(states.get(streamId("M1", "K-failure"))).toMatchObject({ refundedTime: Date.parse("2026-03-02T09:00:00Z") })
  })

  it("holding every event version the codec knows", () => {
    const recorded = new Set(fixture.streams.flatMap((s) => s.events.map((e) => `${e.type}@${e.schemaVersion}`)))
    const known = new Set(Object.entries(aggregate.codec.versions).map(([type, v]) => `${type}@${v.current}`))
    expect(recorded).toEqual(known)
  })

  it("with no clear card number or name in the recorded data", () => {
    const text = JSON.stringify(fixture)
    for (const clear of ["4111111111111111", "5555555555554444", "AISHA", "MANSOURI", "Emirates"])
      expect(text).not.toContain(clear)
  })
})
