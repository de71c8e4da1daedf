import { fold } from "@mizan/eventsourcing"
import { fils } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import { type Event, invariants, refundOrder, rules } from "../src/index.ts"
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

  it("report parts that do not sum to the refund amount", () =>
    expect(brokenRulesOf([created({ payeeRefundFils: fils(details.payeeRefundFils + 1) })])).toEqual([
      rules.allocationSums,
    ]))

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
