/**
 * Refund and get refund (docs/api.md#refund-order, docs/api.md#get-refund-order;
 * get refund names its refund by exactly one of refundMerchantOrderNo or
 * orderNo).
 */
import { BoundedString, MoneyFromWire, PositiveMoneyFromWire, refundNoteFields } from "@mizan/kernel"
import { Schema, SchemaTransformation } from "effect"
import {
  exactlyOneOf,
  MerchantOrderNo,
  NotifyUrl,
  OrderNo,
  SeqId,
  sensitiveField,
  Text,
  withDomainNames,
} from "./fields.ts"

export const refundSensitive = {
  sharingIdentity: sensitiveField(200, "encrypted-or-digest"),
} as const

/** A sharing item of a refund; decoded, its amount is named in fils as the domain names it. */
export const RefundSharingParam = withDomainNames(
  Schema.Struct({
    sharingIdentitySeqId: SeqId,
    sharingIdentityType: Schema.Literals(["PHONE_NO", "MEMBER_ID", "ALTWALLET_ID"]).annotate({
      message: 'must be "PHONE_NO", "MEMBER_ID" or "ALTWALLET_ID"',
    }),
    sharingIdentity: refundSensitive.sharingIdentity.schema,
    sharingMemo: BoundedString(128),
    sharingAmount: MoneyFromWire,
    withholdAndRemitFee: Schema.optionalKey(Schema.Boolean),
  }),
  { sharingAmount: "sharingAmountFils" },
)

const refundFields = {
  originMerchantOrderNo: Schema.optionalKey(MerchantOrderNo),
  originOrderNo: Schema.optionalKey(OrderNo),
  amount: PositiveMoneyFromWire,
  refundSharingAmount: Schema.optionalKey(Schema.Boolean),
  sharingParamList: Schema.optionalKey(Schema.Array(RefundSharingParam)),
  // The notes pass through the domain as they came (@mizan/kernel refundNoteFields): one definition for both.
  ...refundNoteFields,
}

/**
 * The refund request as it travels. The table names the refund's own number
 * `refundMerchantOrderNo` while the spec's sample names it `merchantOrderNo`:
 * either is accepted (lenient reading), exactly one of them.
 */
const RefundRequestWire = Schema.Struct({
  refundMerchantOrderNo: Schema.optionalKey(MerchantOrderNo),
  merchantOrderNo: Schema.optionalKey(MerchantOrderNo),
  ...refundFields,
}).check(
  exactlyOneOf("refundMerchantOrderNo", "merchantOrderNo"),
  // "Only one of the two origin fields may be used."
  exactlyOneOf("originMerchantOrderNo", "originOrderNo"),
)

const { amount: _amount, ...otherRefundFields } = refundFields

/** The two keys the refund's own number may come under. */
const RefundNumberKey = Schema.Literals(["refundMerchantOrderNo", "merchantOrderNo"])

/**
 * The refund request decoded: money named in fils (`amountFils`) as the
 * domain's refund request names it, and the refund's number always
 * `refundMerchantOrderNo`, whichever of its two names it came under. That
 * name is kept beside it (`refundMerchantOrderNoSentAs`), so that a refusal
 * about the number names the field the merchant sent, and the request
 * encodes back as it came.
 */
type RefundRequestFields = typeof otherRefundFields & {
  readonly refundMerchantOrderNo: typeof MerchantOrderNo
  readonly refundMerchantOrderNoSentAs: typeof RefundNumberKey
  readonly amountFils: typeof PositiveMoneyFromWire
}
type DecodedRefundRequest = Schema.Struct<RefundRequestFields>["Type"]

export const RefundRequest = withDomainNames(RefundRequestWire, { amount: "amountFils" }).pipe(
  Schema.decodeTo(
    // Checked on the wire already (withDomainNames): one number under one name, checked again by nothing.
    Schema.declare((_: unknown): _ is DecodedRefundRequest => true),
    SchemaTransformation.transform({
      decode: ({ refundMerchantOrderNo, merchantOrderNo, ...rest }): DecodedRefundRequest =>
        // exactlyOneOf above guarantees one of the two.
        refundMerchantOrderNo !== undefined
          ? { ...rest, refundMerchantOrderNo, refundMerchantOrderNoSentAs: "refundMerchantOrderNo" }
          : {
              ...rest,
              refundMerchantOrderNo: merchantOrderNo as string,
              refundMerchantOrderNoSentAs: "merchantOrderNo",
            },
      encode: ({ refundMerchantOrderNo, refundMerchantOrderNoSentAs, ...rest }) => ({
        ...rest,
        [refundMerchantOrderNoSentAs]: refundMerchantOrderNo,
      }),
    }),
  ),
)

export const GetRefundRequest = Schema.Struct({
  refundMerchantOrderNo: Schema.optionalKey(MerchantOrderNo),
  orderNo: Schema.optionalKey(OrderNo),
}).check(exactlyOneOf("refundMerchantOrderNo", "orderNo"))

export const RefundOrderStatus = Schema.Literals(["CREATED", "REFUNDED_SETTLED", "SUCCESS", "FAILURE"])

export const RefundSharingInfo = Schema.Struct({
  sharingIdentitySeqId: SeqId,
  sharingMid: Text,
  sharingMemo: Text,
  sharingAmount: MoneyFromWire,
  sharingSettledAmount: MoneyFromWire,
})

export const RefundOrder = Schema.Struct({
  refundMerchantOrderNo: MerchantOrderNo,
  orderNo: OrderNo,
  originMerchantOrderNo: MerchantOrderNo,
  status: RefundOrderStatus,
  amount: MoneyFromWire,
  feeRefunded: Schema.optionalKey(MoneyFromWire),
  sharingInfoList: Schema.optionalKey(Schema.Array(RefundSharingInfo)),
  notifyUrl: Schema.optionalKey(NotifyUrl),
  reason: Schema.optionalKey(BoundedString(64)),
  secondaryMerchantId: Schema.optionalKey(BoundedString(200)),
  deviceId: Schema.optionalKey(BoundedString(200)),
  failCode: Schema.optionalKey(Text),
  failDes: Schema.optionalKey(Text),
  /** "Documented as the service's identification number of the order." */
  reserved: Text,
})
export type RefundOrder = typeof RefundOrder.Type

export const RefundSummary = Schema.Struct({
  acquireAmount: MoneyFromWire,
  remainRefundAmount: MoneyFromWire,
})

export const RefundResponse = Schema.Struct({ refundOrder: RefundOrder, refundSummary: RefundSummary })

/** Get refund: the spec shows no body; the service's documentation returns the refund and, beside it, the summary. */
export const GetRefundResponse = Schema.Struct({
  refundOrder: RefundOrder,
  refundSummary: Schema.optionalKey(RefundSummary),
})
