/**
 * What the gateway reads off an order: `sharingInfoList` (each sharing item
 * with what it received, zero until paid) and `refundDetails` (what the refund
 * order of a reservation records). Amounts are worked out by hand from the
 * spec's rules in each test's comment.
 */
import { fold } from "@mizan/eventsourcing"
import { fils } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import {
  aggregate as acquiringOrder,
  type Command,
  isOrder,
  type Order,
  type RefundReservation,
} from "../src/acquiringOrder.ts"
import { refundDetails, sharingInfoList } from "../src/index.ts"
import {
  at,
  createOrder,
  eventsDecidedBy,
  merchantId,
  payOrder,
  reserveRefund,
  sharingItem,
} from "../src/testing/index.ts"

/** Item 1 (AED 30.00) was matched to member MID-1 at creation; item 2 (AED 10.00) was not. */
const matched = { ...sharingItem(1, 3_000), sharingMid: "MID-1" }
const items = [matched, sharingItem(2, 1_000)]

const orderAfter = (...commands: ReadonlyArray<Command>): Order => {
  const state = fold(acquiringOrder, eventsDecidedBy(...commands))
  if (!isOrder(state)) throw new Error("no order")
  return state
}
const onlyRefund = (order: Order): RefundReservation => {
  const [refund] = order.refunds
  if (refund === undefined) throw new Error("no refund")
  return refund
}

describe("sharingInfoList: each sharing item with what it received", () => {
  it("answers zero received until the order is paid", () =>
    expect(sharingInfoList(orderAfter(createOrder({ sharingParamList: items })))).toStrictEqual([
      { ...matched, sharingSettledAmountFils: 0, sharingSettledFeeAmountFils: 0 },
      { ...sharingItem(2, 1_000), sharingSettledAmountFils: 0, sharingSettledFeeAmountFils: 0 },
    ]))

  it("answers the split once paid: the withholding item bears the 2.5% fee of AED 100.00", () => {
    const withholding = [matched, sharingItem(2, 1_000, true)]
    expect(sharingInfoList(orderAfter(createOrder({ sharingParamList: withholding }), payOrder()))).toStrictEqual([
      { ...matched, sharingSettledAmountFils: 3_000, sharingSettledFeeAmountFils: 0 },
      { ...sharingItem(2, 1_000, true), sharingSettledAmountFils: 750, sharingSettledFeeAmountFils: 250 },
    ])
  })

  it("is empty for an order without sharing items", () =>
    expect(sharingInfoList(orderAfter(createOrder(), payOrder()))).toEqual([]))
})

describe("refundDetails: what the refund order records", () => {
  const paid = [createOrder({ sharingParamList: items }), payOrder()] as const

  /** The merchant's refund REFUND-1 of AED 10.00 of the paid order, its sharing amounts given back too. */
  const refundTen = (request: Parameters<typeof reserveRefund>[0] = {}) =>
    orderAfter(...paid, reserveRefund({ amountFils: fils(1_000), refundSharingAmount: true, ...request }))

  /** What every refund the merchant asks for records first: its cause and the numbers of both orders. */
  const requestedRefund = {
    cause: "REQUEST",
    originMerchantOrderNo: "ORDER-1",
    originOrderNo: "SVC-ORDER-1",
    refundMerchantOrderNo: "REFUND-1",
  }

  /** A sharing item's line of the refund order: `amountFils` given back, with the member id where one matched. */
  const refundedShare = (
    sharingIdentitySeqId: number,
    sharingMemo: string,
    amountFils: number,
    sharingMid?: string,
  ) => ({
    sharingIdentitySeqId,
    sharingMemo,
    sharingAmountFils: amountFils,
    sharingSettledAmountFils: amountFils,
    ...(sharingMid === undefined ? {} : { sharingMid }),
  })

  it("names each listed member with its memo and amount, and the rest from the payee and the fee account", () => {
    // AED 10.00 back: member 1 gives 1.00; the 9.00 left comes from the payee (57.50 left) and the fee
    // account (2.50) in proportion: 8.625 and 0.375, the spare fils to the payee (the earlier account).
    const order = refundTen({
      reason: "damaged",
      operatorName: "Sara",
      sharingParamList: [{ ...sharingItem(1, 100), sharingMemo: "back" }],
    })
    expect(refundDetails(order, onlyRefund(order))).toStrictEqual({
      ...requestedRefund,
      amountFils: 1_000,
      payeeRefundFils: 863,
      feeRefundedFils: 37,
      sharingInfoList: [refundedShare(1, "back", 100, "MID-1")],
      reason: "damaged",
      operatorName: "Sara",
    })
  })

  it("gives each listed member its own memo and amount", () => {
    const order = refundTen({
      sharingParamList: [
        { ...sharingItem(2, 50), sharingMemo: "two" },
        { ...sharingItem(1, 100), sharingMemo: "one" },
      ],
    })
    expect(refundDetails(order, onlyRefund(order)).sharingInfoList).toStrictEqual([
      refundedShare(1, "one", 100, "MID-1"),
      refundedShare(2, "two", 50),
    ])
  })

  it("names every account of a proportional refund with the order's memo, and the member id only where one matched", () => {
    // AED 10.00 from payee 57.50, item 1 30.00, item 2 10.00 and fee 2.50: 5.75, 3.00, 1.00, 0.25.
    const order = refundTen()
    expect(refundDetails(order, onlyRefund(order))).toStrictEqual({
      ...requestedRefund,
      amountFils: 1_000,
      payeeRefundFils: 575,
      feeRefundedFils: 25,
      sharingInfoList: [refundedShare(1, "share 1", 300, "MID-1"), refundedShare(2, "share 2", 100)],
    })
  })

  it("records a revoke's refund as cause REVOKE, for the whole amount, under the order's own number", () => {
    const order = orderAfter(...paid, { _tag: "RevokeOrder", merchantId, now: at(3_600_000), refundOrderNo: "SVC-RV" })
    expect(refundDetails(order, onlyRefund(order))).toMatchObject({
      cause: "REVOKE",
      refundMerchantOrderNo: "ORDER-1",
      amountFils: 10_000,
      payeeRefundFils: 5_750,
      feeRefundedFils: 250,
      reason: "revoke",
    })
  })

  it("names a member a damaged allocation invents with an empty memo and no member id", () => {
    const order = refundTen()
    const refund = onlyRefund(order)
    const invented = {
      ...refund,
      allocation: { ...refund.allocation, sharing: [{ sharingIdentitySeqId: 9, amountFils: fils(5) }] },
    }
    expect(refundDetails(order, invented).sharingInfoList).toStrictEqual([refundedShare(9, "", 5)])
  })
})
