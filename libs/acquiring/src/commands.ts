/**
 * Commands of the acquiring order. They are domain values, decoded at the
 * edge: amounts in fils, identities as SHA-256 digests, times as Timestamps.
 * Every command names the calling merchant (`Partner-Id`) and carries `now`.
 *
 * Field names follow the spec's wire names, with money fields suffixed by
 * their unit (`totalAmount` on the wire is `totalAmountFils` here).
 */
import {
  BoundedString,
  FeePlan,
  Fils,
  MerchantId,
  MerchantOrderNo,
  OrderNo,
  PositiveFils,
  RequiredString,
  refundNoteFields,
  Sha256Hex,
  SharingIdentitySeqId,
  TextBoolean,
  Timestamp,
} from "@mizan/kernel"
import { Schema } from "effect"

const pattern = (regExp: RegExp, message: string) => Schema.String.check(Schema.isPattern(regExp, { message }))

export { MerchantId, MerchantOrderNo, OrderNo, SharingIdentitySeqId } from "@mizan/kernel"

/** A decimal with at most 12 digits before the point and 2 after (goodsDetail.quantity), kept as its text. */
export const DecimalText = pattern(
  /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/,
  "must be a decimal with at most 12 digits before the point and 2 after",
)

/** Parameters of the PAYPAGE scene ("Create-order scene parameters"). Defaults are applied by `decide`. */
export const PaySceneParams = Schema.Struct({
  redirectUrl: Schema.optionalKey(BoundedString(512)),
  customerId: Schema.optionalKey(Schema.String),
  changePayer: Schema.optionalKey(TextBoolean),
  oneTimePayment: Schema.optionalKey(TextBoolean),
  email: Schema.optionalKey(Schema.String),
  /** The payer's national identity number, only as its digest. */
  eid: Schema.optionalKey(Sha256Hex),
})
export type PaySceneParams = typeof PaySceneParams.Type

/** One item of `sharingParamList` on create order (split payments). */
export const SharingParam = Schema.Struct({
  sharingIdentitySeqId: SharingIdentitySeqId,
  sharingIdentityType: Schema.Literals(["PHONE_NO", "MEMBER_ID"]),
  /** The identity (phone number or member id), only as its digest. */
  sharingIdentity: Sha256Hex,
  sharingMemo: Schema.String,
  sharingAmountFils: PositiveFils,
  withholdAndRemitFee: Schema.optionalKey(Schema.Boolean),
  /** The member id the identity matched in the member directory when the order was created; absent when none did. */
  sharingMid: Schema.optionalKey(Schema.String),
})
export type SharingParam = typeof SharingParam.Type

export const PromotionInfo = Schema.Struct({
  appliedRewardId: RequiredString(64),
  settleFlag: Schema.Literals(["YES", "NO"]),
})
export type PromotionInfo = typeof PromotionInfo.Type

/**
 * `accessoryContent`, kept in the shape it came: every part and field is
 * optional, and an empty object stays an empty object.
 */
export const AccessoryContent = Schema.Struct({
  amountDetail: Schema.optionalKey(
    Schema.Struct({
      discountableAmountFils: Schema.optionalKey(Fils),
      amountFils: Schema.optionalKey(Fils),
      vatAmountFils: Schema.optionalKey(Fils),
      tipAmountFils: Schema.optionalKey(Fils),
    }),
  ),
  goodsDetail: Schema.optionalKey(
    Schema.Struct({
      body: Schema.optionalKey(BoundedString(200)),
      categoriesTree: Schema.optionalKey(BoundedString(200)),
      goodsCategory: Schema.optionalKey(BoundedString(200)),
      goodsId: Schema.optionalKey(BoundedString(200)),
      goodsName: Schema.optionalKey(BoundedString(200)),
      showUrl: Schema.optionalKey(BoundedString(200)),
      priceFils: Schema.optionalKey(Fils),
      quantity: Schema.optionalKey(DecimalText),
    }),
  ),
  terminalDetail: Schema.optionalKey(
    Schema.Struct({
      operatorId: Schema.optionalKey(BoundedString(200)),
      storeId: Schema.optionalKey(BoundedString(200)),
      terminalId: Schema.optionalKey(BoundedString(200)),
      merchantName: Schema.optionalKey(BoundedString(200)),
      storeName: Schema.optionalKey(BoundedString(200)),
    }),
  ),
})
export type AccessoryContent = typeof AccessoryContent.Type

/**
 * What the merchant asked for in create order, as it came (requestTime
 * aside). It is what idempotency compares: the same merchantOrderNo with an
 * identical request is a repeat. `paySceneCode` is any text here, since an
 * unknown scene is a business error (62012), not a malformed request.
 */
export const OrderRequest = Schema.Struct({
  merchantOrderNo: MerchantOrderNo,
  subject: RequiredString(12),
  totalAmountFils: PositiveFils,
  expiredTime: Schema.optionalKey(Timestamp),
  payeeMid: Schema.optionalKey(RequiredString(12)),
  paySceneCode: RequiredString(32),
  paySceneParams: Schema.optionalKey(PaySceneParams),
  sharingParamList: Schema.optionalKey(Schema.Array(SharingParam)),
  promotionInfoList: Schema.optionalKey(Schema.Array(PromotionInfo)),
  notifyUrl: Schema.optionalKey(BoundedString(200)),
  secondaryMerchantId: Schema.optionalKey(BoundedString(200)),
  deviceId: Schema.optionalKey(BoundedString(200)),
  accessoryContent: Schema.optionalKey(AccessoryContent),
  reserved: Schema.optionalKey(BoundedString(200)),
})
export type OrderRequest = typeof OrderRequest.Type

/** The payer of an order, for get order payer. The mobile number arrives masked. */
export const PayerRecord = Schema.Struct({
  payerMid: RequiredString(64),
  mobileNumberMask: pattern(/^[0-9+ ]*\*[0-9* ]*$/, "must be a masked mobile number (digits hidden with *)"),
  deviceId: RequiredString(200),
  ipAddress: RequiredString(64),
})
export type PayerRecord = typeof PayerRecord.Type

/** The card of a DIRECTPAY payment: never its number, only what the spec returns. */
export const CardInfo = Schema.Struct({
  brand: pattern(/^[A-Z]{2,20}$/, "must be an upper-case card network code"),
  cardId: Schema.optionalKey(RequiredString(64)),
  last4: pattern(/^[0-9]{4}$/, "must be the last 4 digits of the card"),
  cardType: Schema.Literals(["DC", "CC"]),
  expMonth: pattern(/^(0[1-9]|1[0-2])$/, "must be a two-digit month"),
  expYear: pattern(/^[0-9]{2}$/, "must be the last two digits of the year"),
})
export type CardInfo = typeof CardInfo.Type

/** One item of a refund request's `sharingParamList`: how much this member gives back. */
export const RefundSharingParam = Schema.Struct({
  sharingIdentitySeqId: SharingIdentitySeqId,
  sharingIdentityType: Schema.Literals(["PHONE_NO", "MEMBER_ID", "ALTWALLET_ID"]),
  sharingIdentity: Sha256Hex,
  sharingMemo: BoundedString(128),
  sharingAmountFils: PositiveFils,
  withholdAndRemitFee: Schema.optionalKey(Schema.Boolean),
})
export type RefundSharingParam = typeof RefundSharingParam.Type

/**
 * A refund request as it came (the origin order aside: it names the stream).
 * It is what a reused refundMerchantOrderNo is compared with (62017).
 */
export const RefundRequest = Schema.Struct({
  refundMerchantOrderNo: MerchantOrderNo,
  amountFils: PositiveFils,
  refundSharingAmount: Schema.optionalKey(Schema.Boolean),
  sharingParamList: Schema.optionalKey(Schema.Array(RefundSharingParam)),
  ...refundNoteFields,
})
export type RefundRequest = typeof RefundRequest.Type

const addressed = { merchantId: MerchantId, now: Timestamp }

/** Create order. `orderNo` is the service's number made at the edge; a repeat keeps the first one. */
export const CreateOrder = Schema.TaggedStruct("CreateOrder", {
  ...addressed,
  orderNo: OrderNo,
  requestTime: Timestamp,
  request: OrderRequest,
})

/** A payer paid (the sandbox, or a payment channel, reports it). `attemptId` names the attempt. */
export const PayOrder = Schema.TaggedStruct("PayOrder", {
  ...addressed,
  attemptId: RequiredString(64),
  paidAmountFils: PositiveFils,
  payChannel: RequiredString(32),
  /** Charged to the payer by the channel on top of paidAmount; reported, not part of the merchant's split. */
  payerFeeFils: Fils,
  /** The merchant's fee plan for acquiring, from configuration. */
  feePlan: FeePlan,
  payer: PayerRecord,
  /** Kept only for the DIRECTPAY scene. */
  cardInfo: Schema.optionalKey(CardInfo),
})

/** A payment attempt failed. With oneTimePayment "true" it closes the order. */
export const FailPaymentAttempt = Schema.TaggedStruct("FailPaymentAttempt", {
  ...addressed,
  attemptId: RequiredString(64),
  payerMid: RequiredString(64),
  failCode: RequiredString(64),
  failDes: BoundedString(256),
})

/** The paid order was settled to the merchant account. */
export const SettleOrder = Schema.TaggedStruct("SettleOrder", addressed)

/** A tick: closes a CREATED order whose expiredTime has come; does nothing otherwise. */
export const ExpireOrder = Schema.TaggedStruct("ExpireOrder", addressed)

/** Cancel an unpaid order (`/acquire2/cancelOrder`). */
export const CancelOrder = Schema.TaggedStruct("CancelOrder", addressed)

/**
 * Revoke order. When the order was paid it starts a full refund, whose
 * refund order gets `refundOrderNo` (made at the edge, used only then).
 */
export const RevokeOrder = Schema.TaggedStruct("RevokeOrder", {
  ...addressed,
  refundOrderNo: OrderNo,
})

/**
 * A refund request reserves its amount against this order: the refundable
 * balance lives here (docs/architecture.md#consistency). `refundOrderNo` is the
 * service's number of the refund order, made at the edge; a repeat keeps the first.
 */
export const ReserveRefund = Schema.TaggedStruct("ReserveRefund", {
  ...addressed,
  refundOrderNo: OrderNo,
  request: RefundRequest,
})

/** The refund order succeeded: its reservation becomes refunded. */
export const ConfirmRefund = Schema.TaggedStruct("ConfirmRefund", { ...addressed, refundOrderNo: OrderNo })

/** The refund order failed (or never came to be): its amount returns to the refundable balance. */
export const ReleaseRefund = Schema.TaggedStruct("ReleaseRefund", {
  ...addressed,
  refundOrderNo: OrderNo,
  reason: BoundedString(256),
})

export const Command = Schema.Union([
  CreateOrder,
  PayOrder,
  FailPaymentAttempt,
  SettleOrder,
  ExpireOrder,
  CancelOrder,
  RevokeOrder,
  ReserveRefund,
  ConfirmRefund,
  ReleaseRefund,
])
export type Command = typeof Command.Type
export type CreateOrder = typeof CreateOrder.Type
export type PayOrder = typeof PayOrder.Type
export type FailPaymentAttempt = typeof FailPaymentAttempt.Type
export type RevokeOrder = typeof RevokeOrder.Type
export type ReserveRefund = typeof ReserveRefund.Type
export type ConfirmRefund = typeof ConfirmRefund.Type
export type ReleaseRefund = typeof ReleaseRefund.Type
