/**
 * Events of the acquiring order, with their schema versions. A change to an
 * event's shape raises its `current` version and brings an upcaster from the
 * previous one; test/fixtures/acquiring.events.json proves old events replay.
 */
import { makeEventCodec } from "@mizan/eventsourcing"
import {
  FeePlan,
  Fils,
  Personal,
  PositiveFils,
  RefundCause,
  RequiredString,
  Sha256Hex,
  TextBoolean,
  Timestamp,
} from "@mizan/kernel"
import { Schema } from "effect"
import {
  CardInfo,
  MerchantId,
  OrderNo,
  OrderRequest,
  PayerRecord,
  PaySceneParams,
  RefundRequest,
  RefundSharingParam,
  SharingIdentitySeqId,
  SharingParam,
} from "./commands.ts"

/*
 * The requests as recorded. The payer's eid, email and customer id and
 * each sharing member's identity are sealed in the store (sealingPlan.ts):
 * once their subject is forgotten they read `[forgotten]`, so the event
 * schemas admit it where the commands do not (a request never carries the
 * placeholder).
 */
const RecordedPaySceneParams = Schema.Struct({
  ...PaySceneParams.fields,
  customerId: Schema.optionalKey(Personal(Schema.String)),
  email: Schema.optionalKey(Personal(Schema.String)),
  eid: Schema.optionalKey(Personal(Sha256Hex)),
})

const RecordedSharingParam = Schema.Struct({ ...SharingParam.fields, sharingIdentity: Personal(Sha256Hex) })
export type RecordedSharingParam = typeof RecordedSharingParam.Type

/** What the merchant sent in create order, as recorded. */
export const RecordedOrderRequest = Schema.Struct({
  ...OrderRequest.fields,
  paySceneParams: Schema.optionalKey(RecordedPaySceneParams),
  sharingParamList: Schema.optionalKey(Schema.Array(RecordedSharingParam)),
})
export type RecordedOrderRequest = typeof RecordedOrderRequest.Type

const RecordedRefundSharingParam = Schema.Struct({ ...RefundSharingParam.fields, sharingIdentity: Personal(Sha256Hex) })

/** A refund request, as recorded. */
export const RecordedRefundRequest = Schema.Struct({
  ...RefundRequest.fields,
  sharingParamList: Schema.optionalKey(Schema.Array(RecordedRefundSharingParam)),
})
export type RecordedRefundRequest = typeof RecordedRefundRequest.Type

/** The scene parameters in force: the request's, with the spec's defaults filled in. */
export const EffectivePaySceneParams = Schema.Struct({
  ...RecordedPaySceneParams.fields,
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
  request: RecordedOrderRequest,
  // What the service decided from it: defaults are recorded, so changing a default never rewrites history.
  expiredTime: Timestamp,
  payeeMid: RequiredString(12),
  paySceneParams: EffectivePaySceneParams,
})

/** The payer as a payment records it, every field sealed under the payer's subject (sealingPlan.ts). */
export const RecordedPayer = Schema.Struct({
  payerMid: Personal(PayerRecord.fields.payerMid),
  mobileNumberMask: Personal(PayerRecord.fields.mobileNumberMask),
  deviceId: Personal(PayerRecord.fields.deviceId),
  ipAddress: Personal(PayerRecord.fields.ipAddress),
})
export type RecordedPayer = typeof RecordedPayer.Type

/** A DIRECTPAY card as a payment records it: the card's own digits and dates, and its id, sealed with the payer. */
export const RecordedCardInfo = Schema.Struct({
  ...CardInfo.fields,
  cardId: Schema.optionalKey(Personal(RequiredString(64))),
  last4: Personal(CardInfo.fields.last4),
  expMonth: Personal(CardInfo.fields.expMonth),
  expYear: Personal(CardInfo.fields.expYear),
})
export type RecordedCardInfo = typeof RecordedCardInfo.Type

export const PaymentAttemptFailed = Schema.TaggedStruct("PaymentAttemptFailed", {
  attemptId: RequiredString(64),
  payerMid: Personal(RequiredString(64)),
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
  payer: RecordedPayer,
  cardInfo: Schema.optionalKey(RecordedCardInfo),
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

export { RefundCause } from "@mizan/kernel"

export const RefundReserved = Schema.TaggedStruct("RefundReserved", {
  refundOrderNo: OrderNo,
  cause: RefundCause,
  /** The merchant's request; for a revoke, the full refund the service asks for on its behalf. */
  request: RecordedRefundRequest,
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
