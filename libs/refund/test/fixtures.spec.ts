import { readFileSync } from "node:fs"
import { fold, type SerializedEvent } from "@mizan/eventsourcing"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  type Event,
  eventCodec,
  invariants,
  aggregate as refundOrder,
  streamId as refundStreamId,
  type State,
} from "../src/refundOrder.ts"

/**
 * Events recorded once from realistic refund flows (@mizan/order-flows) and kept as
 * data: never regenerate this file. When an event's shape changes, raise its
 * version and add an upcaster, so these events keep replaying to the same refunds.
 */
interface Recorded extends SerializedEvent {
  readonly streamId: string
  readonly streamVersion: number
}
const recorded: ReadonlyArray<Recorded> = JSON.parse(
  readFileSync(new URL("./fixtures/refund.events.json", import.meta.url), "utf8"),
)

const replay = (streamId: string): State =>
  fold(
    refundOrder,
    recorded.filter((r) => r.streamId === streamId).map((r): Event => Result.getOrThrow(eventCodec.decode(r))),
  )

describe("recorded refund events", () => {
  it("cover every event type the codec knows", () =>
    expect(new Set(recorded.map((r) => r.type))).toEqual(new Set(Object.keys(eventCodec.versions))))

  it("replay a proportional refund that succeeded", () => {
    const state = replay(refundStreamId("M0001", "REFUND-1"))
    expect(invariants(state)).toEqual([])
    expect(state).toMatchObject({
      status: "SUCCESS",
      orderNo: "SVC-REFUND-1",
      details: { amountFils: 1_000, payeeRefundFils: 475, feeRefundedFils: 25, operatorName: "clerk 7" },
    })
  })

  it("replay a refund with an explicit member list that failed", () => {
    const state = replay(refundStreamId("M0001", "REFUND-2"))
    expect(invariants(state)).toEqual([])
    expect(state).toMatchObject({
      status: "FAILURE",
      details: {
        sharingInfoList: [{ sharingIdentitySeqId: 2, sharingMemo: "back from 2", sharingSettledAmountFils: 500 }],
      },
    })
  })

  it("replay the refund a revoke started", () => {
    const state = replay(refundStreamId("M0001", "ORDER-2", "REVOKE"))
    expect(invariants(state)).toEqual([])
    expect(state).toMatchObject({ status: "CREATED", details: { cause: "REVOKE", amountFils: 10_000 } })
  })
})
