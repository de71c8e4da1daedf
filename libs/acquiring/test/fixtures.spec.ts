import { readFileSync } from "node:fs"
import { fold, type SerializedEvent } from "@mizan/eventsourcing"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { aggregate as acquiringOrder, type Event, eventCodec, invariants, type State } from "../src/acquiringOrder.ts"

/**
 * Events recorded once from realistic scenarios through the real decider and
 * command handler, and kept as data: never regenerate this file. When an
 * event's shape changes, raise its version and add an upcaster, so these
 * events keep replaying to the same orders.
 */
interface Recorded extends SerializedEvent {
  readonly streamId: string
  readonly streamVersion: number
}
const recorded: ReadonlyArray<Recorded> = JSON.parse(
  readFileSync(new URL("./fixtures/acquiring.events.json", import.meta.url), "utf8"),
)

const replay = (merchantOrderNo: string): State => {
  const events = recorded
    .filter((r) => r.streamId.endsWith(`-${merchantOrderNo}`))
    .map((r): Event => Result.getOrThrow(eventCodec.decode(r)))
  return fold(acquiringOrder, events)
}

describe("recorded acquiring events", () => {
  it("cover every event type the codec knows", () =>
    expect(new Set(recorded.map((r) => r.type))).toEqual(new Set(Object.keys(eventCodec.versions))))

  it("all decode with today's schemas", () => {
    for (const record of recorded) expect(Result.isSuccess(eventCodec.decode(record))).toBe(true)
  })

  it("encode back at the version they were recorded at: no event's shape has changed, so every one is still 1", () => {
    for (const record of recorded) {
      const written = eventCodec.encode(Result.getOrThrow(eventCodec.decode(record)))
      expect({ type: written.type, schemaVersion: written.schemaVersion }).toEqual({
        type: record.type,
        schemaVersion: 1,
      })
    }
  })

  it("replay a paid, partly refunded and settled split order", () => {
    const state = replay("ORDER-SPLIT")
    expect(invariants(state)).toEqual([])
    expect(state).toMatchObject({
      status: "SETTLED",
      revoked: false,
      boundPayerMid: "PAYER-1",
      refundedFils: 1_000,
      pendingRefundFils: 0,
      failedAttempts: [{ attemptId: "attempt-0" }],
      payment: { paidAmountFils: 9_500, cardInfo: { last4: "4242" } },
      refunds: [
        { refundOrderNo: "SVC-REFUND-1", status: "SUCCEEDED" },
        { refundOrderNo: "SVC-REFUND-2", status: "RELEASED" },
      ],
    })
  })

  it("replay a paid order revoked before settlement, its full refund succeeded", () => {
    const state = replay("ORDER-REVOKED")
    expect(invariants(state)).toEqual([])
    expect(state).toMatchObject({ status: "FAILURE", revoked: true, refundedFils: 10_000, pendingRefundFils: 0 })
  })

  it("replay an order that expired unpaid", () => {
    const state = replay("ORDER-EXPIRED")
    expect(invariants(state)).toEqual([])
    expect(state).toMatchObject({ status: "FAILURE", failure: { failCode: "ORDER_EXPIRED" } })
  })
})
