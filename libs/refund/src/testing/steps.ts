import { type Fils, fils, type Timestamp, timestamp } from "@mizan/kernel"
import fc from "fast-check"
import type { Command, RefundDetails } from "../commands.ts"

/**
 * Random commands against one refund order of `details`: creations with the
 * same details, other details, and parts one fils off the amount; settle,
 * complete and fail reports, by this merchant or another one.
 */
export const refundCommand = (merchantId: string, details: RefundDetails, from: Timestamp): fc.Arbitrary<Command> => {
  const now = fc.integer({ min: 0, max: 48 * 3_600_000 }).map((ms) => timestamp(from + ms))
  const by = fc.oneof({ arbitrary: fc.constant(merchantId), weight: 9 }, fc.constant("OTHER"))
  // The payee's part one fils more or less makes the parts miss the amount by exactly one fils.
  const payeeOff = (delta: number): Fils => fils(Math.max(0, details.payeeRefundFils + delta))
  const create = fc
    .record({
      now,
      orderNo: fc.constantFrom("SVC-1", "SVC-2"),
      variant: fc.constantFrom("same", "same", "same", "otherReason", "partsOver", "partsUnder"),
    })
    .map(
      ({ now, orderNo, variant }): Command => ({
        _tag: "CreateRefund",
        merchantId,
        now,
        orderNo,
        details: {
          ...details,
          ...(variant === "otherReason" ? { reason: "other" } : {}),
          ...(variant === "partsOver" ? { payeeRefundFils: payeeOff(1) } : {}),
          ...(variant === "partsUnder" ? { payeeRefundFils: payeeOff(-1) } : {}),
        },
      }),
    )
  return fc.oneof(
    create,
    fc.record({ merchantId: by, now }).map((c): Command => ({ _tag: "SettleRefund", ...c })),
    fc.record({ merchantId: by, now }).map((c): Command => ({ _tag: "CompleteRefund", ...c })),
    fc
      .record({ merchantId: by, now })
      .map((c): Command => ({ _tag: "FailRefund", ...c, failCode: "BANK_REJECTED", failDes: "the bank refused it" })),
  )
}
