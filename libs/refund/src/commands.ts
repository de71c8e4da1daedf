/**
 * Commands of the refund order. The refund order is created from what the
 * acquiring order reserved (@mizan/acquiring `refundDetails`): the amount and
 * its allocation over the accounts were decided there, where the refundable
 * balance lives; this aggregate records them and follows the refund's
 * lifecycle. Field names follow the spec's `refundOrder`, money suffixed Fils.
 */
import {
  BoundedString,
  Fils,
  MerchantId,
  MerchantOrderNo,
  OrderNo,
  PositiveFils,
  RefundCause,
  RequiredString,
  refundNoteFields,
  SharingIdentitySeqId,
  Timestamp,
} from "@mizan/kernel"
import { Schema } from "effect"

export { MerchantId, MerchantOrderNo, OrderNo, RefundCause } from "@mizan/kernel"

/** refundOrder.sharingInfoList: what one sharing member gives back. */
export const RefundSharingInfo = Schema.Struct({
  sharingIdentitySeqId: SharingIdentitySeqId,
  sharingMemo: Schema.String,
  /** As requested (a refund's explicit list), or as allocated (a proportional refund). */
  sharingAmountFils: Fils,
  /** What this member actually gives back. */
  sharingSettledAmountFils: Fils,
  /** The member id the order's sharing identity matched, when it matched one. */
  sharingMid: Schema.optionalKey(Schema.String),
})
export type RefundSharingInfo = typeof RefundSharingInfo.Type

/**
 * What a refund order is: its origin, amount, allocation and the merchant's
 * notes. Parts: payeeRefundFils + feeRefundedFils + sum of
 * sharingSettledAmountFils = amountFils.
 */
export const RefundDetails = Schema.Struct({
  cause: RefundCause,
  originMerchantOrderNo: MerchantOrderNo,
  /** The service's number of the acquiring order. */
  originOrderNo: OrderNo,
  refundMerchantOrderNo: MerchantOrderNo,
  amountFils: PositiveFils,
  payeeRefundFils: Fils,
  /** The spec's feeRefunded: the part of the transaction fee given back. */
  feeRefundedFils: Fils,
  sharingInfoList: Schema.Array(RefundSharingInfo),
  ...refundNoteFields,
})
export type RefundDetails = typeof RefundDetails.Type

const addressed = { merchantId: MerchantId, now: Timestamp }

/** Create the refund order. `orderNo` is the reservation's refundOrderNo; a repeat keeps the first. */
export const CreateRefund = Schema.TaggedStruct("CreateRefund", {
  ...addressed,
  orderNo: OrderNo,
  details: RefundDetails,
})

/** The amount was deducted from the merchant account (REFUNDED_SETTLED). */
export const SettleRefund = Schema.TaggedStruct("SettleRefund", addressed)

/** The refund reached the payer's account, or the bank is processing it (SUCCESS). */
export const CompleteRefund = Schema.TaggedStruct("CompleteRefund", addressed)

export const FailRefund = Schema.TaggedStruct("FailRefund", {
  ...addressed,
  failCode: RequiredString(64),
  failDes: BoundedString(256),
})

export const Command = Schema.Union([CreateRefund, SettleRefund, CompleteRefund, FailRefund])
export type Command = typeof Command.Type
export type CreateRefund = typeof CreateRefund.Type
