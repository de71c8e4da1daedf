import { fold } from "@mizan/eventsourcing"
import { fils } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import { aggregate as acquiringOrder, type Event, invariants, rules } from "../src/acquiringOrder.ts"
import {
  at,
  createOrder,
  eventsDecidedBy,
  merchantId,
  payOrder,
  reserveRefund,
  sharingItem,
} from "../src/testing/index.ts"

/** Histories no decider would write, as a damaged or hand-edited store might hold: the audit must see them. */
const brokenRulesOf = (events: ReadonlyArray<Event>) => invariants(fold(acquiringOrder, events)).map((b) => b.rule)

const paid = eventsDecidedBy(createOrder({ sharingParamList: [sharingItem(1, 3_000)] }), payOrder())
const reserved = (refundOrderNo: string, amountFils: number): Event => {
  const [event] = eventsDecidedBy(
    createOrder({ sharingParamList: [sharingItem(1, 3_000)] }),
    payOrder(),
    reserveRefund({ amountFils: fils(amountFils), refundSharingAmount: true }, { refundOrderNo }),
  ).slice(-1)
  if (event === undefined) throw new Error("no reservation")
  return event
}

describe("invariants on damaged histories", () => {
  it("hold on a history the decider wrote", () => expect(brokenRulesOf([...paid, reserved("S1", 4_000)])).toEqual([]))

  it("report an event that does not fit the order's status", () => {
    const closed = eventsDecidedBy(createOrder(), { _tag: "CancelOrder", merchantId, now: at(1) })
    const [payment] = paid.slice(1)
    expect(brokenRulesOf([...closed, payment as Event])).toEqual([rules.transitions])
    expect(brokenRulesOf([{ _tag: "OrderSettled", settledAt: at(1) }])).toEqual([rules.transitions])
  })

  it("report refunds above the paid amount and accounts that give back more than they received", () =>
    expect(brokenRulesOf([...paid, reserved("S1", 6_000), reserved("S2", 6_000)])).toEqual(
      expect.arrayContaining([rules.refundsWithinPaid, rules.accountsWithinReceived]),
    ))

  it("report an allocation that does not sum to its refund", () => {
    const event = reserved("S1", 1_000)
    if (event._tag !== "RefundReserved") throw new Error("not a reservation")
    const skewed = { ...event, allocation: { ...event.allocation, feeFils: fils(event.allocation.feeFils + 1) } }
    expect(brokenRulesOf([...paid, skewed])).toContain(rules.allocationSums)
  })

  it("report a payment split that loses a fils, and a paid amount above totalAmount", () => {
    const [created, payment] = paid
    if (payment?._tag !== "OrderPaid" || created === undefined) throw new Error("not a payment")
    const lossy = { ...payment, settlement: { ...payment.settlement, settlementAmountFils: fils(0) } }
    expect(brokenRulesOf([created, lossy])).toContain(rules.splitSums)
    const over = { ...payment, paidAmountFils: fils(20_000) }
    expect(brokenRulesOf([created, over])).toEqual(expect.arrayContaining([rules.paidWithinTotal, rules.splitSums]))
  })

  it("report a split that leaves out a sharing item of the order", () => {
    const [created, payment] = paid
    if (payment?._tag !== "OrderPaid" || created === undefined) throw new Error("not a payment")
    expect(brokenRulesOf([created, { ...payment, settlement: { ...payment.settlement, sharing: [] } }])).toContain(
      rules.splitCoversSharing,
    )
  })

  it("report a confirmation of a refund the order never reserved", () =>
    expect(brokenRulesOf([...paid, { _tag: "RefundConfirmed", refundOrderNo: "S9", confirmedAt: at(1) }])).toEqual([
      rules.transitions,
    ]))
})
