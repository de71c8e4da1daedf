import { fold } from "@mizan/eventsourcing"
import { fils } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import { type Event, invariants, aggregate as refundOrder, rules } from "../src/refundOrder.ts"
import { at, details, merchantId } from "./builders.ts"

const brokenRulesOf = (events: ReadonlyArray<Event>) => invariants(fold(refundOrder, events)).map((b) => b.rule)
const created = (overrides = {}): Event => ({
  _tag: "RefundCreated",
  merchantId,
  orderNo: "SVC-REFUND-1",
  details: { ...details, ...overrides },
  createdAt: at(1),
})

describe("invariants on damaged histories", () => {
  it("hold on a history the decider wrote", () => expect(brokenRulesOf([created()])).toEqual([]))

  it("report a status move the lifecycle does not have", () => {
    expect(brokenRulesOf([created(), { _tag: "RefundSucceeded", succeededAt: at(2) }])).toEqual([rules.transitions])
    expect(brokenRulesOf([{ _tag: "RefundSettled", settledAt: at(2) }])).toEqual([rules.transitions])
  })

  const settled: Event = { _tag: "RefundSettled", settledAt: at(2) }
  const succeeded: Event = { _tag: "RefundSucceeded", succeededAt: at(3) }
  const failed: Event = { _tag: "RefundFailed", failCode: "BANK_REJECTED", failDes: "closed", failedAt: at(4) }

  it.each([
    ["a FAILURE refund settled again", [created(), failed, settled], "FAILURE"],
    ["a FAILURE refund succeeding", [created(), failed, succeeded], "FAILURE"],
    ["a SUCCESS refund failing", [created(), settled, succeeded, failed], "SUCCESS"],
    ["a SUCCESS refund settled again", [created(), settled, succeeded, settled], "SUCCESS"],
    ["a REFUNDED_SETTLED refund settled twice", [created(), settled, settled], "REFUNDED_SETTLED"],
  ] as const)("report %s, and keep the status it had", (_, events, status) => {
    const state = fold(refundOrder, events)
    expect(invariants(state).map((b) => b.rule)).toEqual([rules.transitions])
    expect(state).toMatchObject({ status })
  })

  it("report parts that sum to more, or to less, than the refund amount", () => {
    for (const payeeRefundFils of [fils(details.payeeRefundFils + 1), fils(details.payeeRefundFils - 1)])
      expect(brokenRulesOf([created({ payeeRefundFils })])).toEqual([rules.allocationSums])
  })

  it("report a sharing member that appears twice", () => {
    const [first] = details.sharingInfoList
    if (first === undefined) throw new Error("no member")
    expect(
      brokenRulesOf([
        created({
          sharingInfoList: [first, first],
          payeeRefundFils: fils(details.amountFils - details.feeRefundedFils - 2 * first.sharingSettledAmountFils),
        }),
      ]),
    ).toEqual([rules.membersUnique])
  })
})

describe("what a broken rule says", () => {
  const detailsOf = (events: ReadonlyArray<Event>) => invariants(fold(refundOrder, events)).map((b) => b.detail)

  it("names the event and the status it did not fit", () => {
    expect(detailsOf([created(), { _tag: "RefundSucceeded", succeededAt: at(2) }])).toEqual([
      "RefundSucceeded on a CREATED refund",
    ])
    expect(detailsOf([{ _tag: "RefundSettled", settledAt: at(2) }])).toEqual([
      "RefundSettled before the refund was created",
    ])
  })

  it("keeps the first refund when it is created twice, and says so", () => {
    const state = fold(refundOrder, [created(), created({ reason: "second" })])
    expect(state).toMatchObject({ details: { reason: "damaged" } })
    expect(invariants(state).map((b) => b.detail)).toEqual(["RefundCreated on a refund that already exists"])
  })

  it("gives the parts' sum and the amount, and the members named twice", () => {
    expect(detailsOf([created({ payeeRefundFils: fils(details.payeeRefundFils + 1) })])).toEqual(["parts 1001 != 1000"])
    const [first] = details.sharingInfoList
    if (first === undefined) throw new Error("no member")
    expect(
      detailsOf([
        created({
          sharingInfoList: [first, first],
          payeeRefundFils: fils(details.amountFils - details.feeRefundedFils - 2 * first.sharingSettledAmountFils),
        }),
      ]),
    ).toEqual(["1, 1"])
  })
})
