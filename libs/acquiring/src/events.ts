/**
 * Events of the acquiring order, with their schema versions. A change to an
 * event's shape raises its `current` version and brings an upcaster from the
 * previous one; test/fixtures/acquiring.events.json proves old events replay.
 */
import { makeEventCodec } from "@mizan/eventsourcing"
import { FeePlan, Fils, PositiveFils, RequiredString, TextBoolean, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import {
  CardInfo,
  MerchantId,
  OrderNo,
  OrderRequest,
  PayerRecord,
  PaySceneParams,
  RefundRequest,
  SharingIdentitySeqId,
} from "./commands.ts"

/** The scene parameters in force: the request's, with the spec's defaults filled in. */
export const EffectivePaySceneParams = Schema.Struct({
  ...PaySceneParams.fields,
  changePayer: TextBoolean,
  oneTimePayment: TextBoolean,
})
export type EffectivePaySceneParams = typeof EffectivePaySceneParams.Type

export const OrderCreated = Schema.TaggedStruct("OrderCreated", {
  merchantId: MerchantId,
  orderNo: OrderNo,
  /** The first request's time: the order's creation time for the spec, and the start of the refund window. */
  requestTime: Timestamp,
  createdAt: Timestamp,
  /** What the merchant sent, as it came. */
  request: OrderRequest,
  // What the service decided from it: defaults are recorded, so changing a default never rewrites history.
  expiredTime: Timestamp,
  payeeMid: RequiredString(12),
  paySceneParams: EffectivePaySceneParams,
})

export const PaymentAttemptFailed = Schema.TaggedStruct("PaymentAttemptFailed", {
  attemptId: RequiredString(64),
  payerMid: RequiredString(64),
  failCode: RequiredString(64),
  failDes: Schema.String,
  failedAt: Timestamp,
})

/** How a paid amount is split: `paid = settlementAmount + sum(sharingSettledAmount) + fees` (see settlement.ts). */
export const Settlement = Schema.Struct({
  /** What the payee receives after its share of the fee. */
  settlementAmountFils: Fils,
  /** The part of the fee the payee bears. */
  payeeFeeAmountFils: Fils,
  sharing: Schema.Array(
    Schema.Struct({
      sharingIdentitySeqId: SharingIdentitySeqId,
      sharingSettledAmountFils: Fils,
      sharingSettledFeeAmountFils: Fils,
    }),
  ),
})
export type Settlement = typeof Settlement.Type

export const OrderPaid = Schema.TaggedStruct("OrderPaid", {
  attemptId: RequiredString(64),
  paidTime: Timestamp,
  paidAmountFils: PositiveFils,
  payChannel: RequiredString(32),
  payerFeeFils: Fils,
  feePlan: FeePlan,
  payer: PayerRecord,
  cardInfo: Schema.optionalKey(CardInfo),
  settlement: Settlement,
})

export const OrderSettled = Schema.TaggedStruct("OrderSettled", { settledAt: Timestamp })

/** Why a CREATED order became FAILURE (the order's `failCode`). */
export const CloseReason = Schema.Literals(["ORDER_EXPIRED", "ORDER_CANCELLED", "ORDER_REVOKED", "PAYMENT_FAILED"])
export type CloseReason = typeof CloseReason.Type

export const OrderClosed = Schema.TaggedStruct("OrderClosed", {
  failCode: CloseReason,
  failDes: Schema.String,
  closedAt: Timestamp,
})

/** A paid order was revoked: `revoked` becomes true; a paid, unsettled order also becomes FAILURE. */
export const OrderRevoked = Schema.TaggedStruct("OrderRevoked", { revokedAt: Timestamp })

/**
 * How one refund is taken from the accounts that received the payment. The
 * parts sum to the refund amount (see refundAllocation.ts).
 */
export const RefundAllocation = Schema.Struct({
  payeeFils: Fils,
  /** The fee refunded (the refund order's `feeRefunded`). */
  feeFils: Fils,
  sharing: Schema.Array(Schema.Struct({ sharingIdentitySeqId: SharingIdentitySeqId, amountFils: Fils })),
})
export type RefundAllocation = typeof RefundAllocation.Type

/** Whether the merchant asked for the refund, or a revoke started it. */
export const RefundCause = Schema.Literals(["REQUEST", "REVOKE"])
export type RefundCause = typeof RefundCause.Type

export const RefundReserved = Schema.TaggedStruct("RefundReserved", {
  refundOrderNo: OrderNo,
  cause: RefundCause,
  /** The merchant's request; for a revoke, the full refund the service asks for on its behalf. */
  request: RefundRequest,
  allocation: RefundAllocation,
  reservedAt: Timestamp,
})

export const RefundConfirmed = Schema.TaggedStruct("RefundConfirmed", {
  refundOrderNo: OrderNo,
  confirmedAt: Timestamp,
})

export const RefundReleased = Schema.TaggedStruct("RefundReleased", {
  refundOrderNo: OrderNo,
  reason: Schema.String,
  releasedAt: Timestamp,
})

export const Event = Schema.Union([
  OrderCreated,
  PaymentAttemptFailed,
  OrderPaid,
  OrderSettled,
  OrderClosed,
  OrderRevoked,
  RefundReserved,
  RefundConfirmed,
  RefundReleased,
])
export type Event = typeof Event.Type
export type OrderCreated = typeof OrderCreated.Type
export type OrderPaid = typeof OrderPaid.Type
export type RefundReserved = typeof RefundReserved.Type

export const eventCodec = makeEventCodec(Event, {
  OrderCreated: { current: 1 },
  PaymentAttemptFailed: { current: 1 },
  OrderPaid: { current: 1 },
  OrderSettled: { current: 1 },
  OrderClosed: { current: 1 },
  OrderRevoked: { current: 1 },
  RefundReserved: { current: 1 },
  RefundConfirmed: { current: 1 },
  RefundReleased: { current: 1 },
})
