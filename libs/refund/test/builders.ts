/** Refund commands built from a real reservation of a real acquiring order. */
import { AcquiringOrder, refundDetails } from "@mizan/acquiring"
import {
  at,
  createOrder,
  eventsDecidedBy,
  merchantId,
  payOrder,
  reserveRefund,
  sharingItem,
} from "@mizan/acquiring/testing"
import { fold } from "@mizan/eventsourcing"
import { fils, type Timestamp } from "@mizan/kernel"
import type { Command, CreateRefund, RefundDetails } from "../src/refundOrder.ts"

export { at, merchantId }

const reservedOrder = fold(
  AcquiringOrder.aggregate,
  eventsDecidedBy(
    createOrder({ sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 2_000)] }),
    payOrder(),
    reserveRefund({ amountFils: fils(1_000), refundSharingAmount: true, reason: "damaged" }),
  ),
)
if (!AcquiringOrder.isOrder(reservedOrder) || reservedOrder.refunds[0] === undefined)
  throw new Error("the reservation was refused")

/** 10.00 AED back from a 100.00 AED order split over the payee, two sharing members and the fee account. */
export const details: RefundDetails = refundDetails(reservedOrder, reservedOrder.refunds[0])

export const createRefund = (overrides: Partial<RefundDetails> = {}, now: Timestamp = at(3_600_000)): CreateRefund => ({
  _tag: "CreateRefund",
  merchantId,
  now,
  orderNo: "SVC-REFUND-1",
  details: { ...details, ...overrides },
})

export const settleRefund = (now = at(7_200_000)): Command => ({ _tag: "SettleRefund", merchantId, now })
export const completeRefund = (now = at(7_200_000)): Command => ({ _tag: "CompleteRefund", merchantId, now })
export const failRefund = (now = at(7_200_000)): Command => ({
  _tag: "FailRefund",
  merchantId,
  now,
  failCode: "BANK_REJECTED",
  failDes: "the bank refused the refund",
})
