/**
 * Acquiring operations: create order, get order, get order payer, revoke and
 * cancel (docs/api.md#create-order to docs/api.md#cancel-unpaid-order; cancel
 * is named by its order as get order is).
 */
import {
  BoundedString,
  Currency,
  MoneyFromWire,
  Personal,
  PositiveMoneyFromWire,
  RequiredString,
  Sha256Hex,
  TextBoolean,
  Timestamp,
} from "@mizan/kernel"
import { Schema, SchemaTransformation } from "effect"
import {
  exactlyOneOf,
  IdentityType,
  Last4,
  MerchantOrderNo,
  NotifyUrl,
  ObjectOrEmptyList,
  OrderNo,
  QuantityFromWire,
  RequiredText,
  SeqId,
  sensitiveField,
  Text,
  withDomainNames,
} from "./fields.ts"

/** The scene codes the spec lists (the kernel's); others reach the gateway, which answers 62012. */
export { type PaySceneCode as KnownPaySceneCode, paySceneCodes as knownPaySceneCodes } from "@mizan/kernel"

/** Encrypted fields of create order. `eid` has no length in the spec; 64 holds any national identity number. */
export const createOrderSensitive = {
  eid: sensitiveField(64, "encrypted-or-digest"),
  sharingIdentity: sensitiveField(20, "encrypted-or-digest"),
} as const

// Request parts.

/** PAYPAGE's parameters, the only scene whose parameters the spec shows; other keys are dropped. */
const paySceneParamsFields = {
  redirectUrl: Schema.optionalKey(BoundedString(512)),
  customerId: Schema.optionalKey(Text),
  changePayer: Schema.optionalKey(TextBoolean),
  oneTimePayment: Schema.optionalKey(TextBoolean),
  email: Schema.optionalKey(Text),
}

export const PaySceneParamsRequest = ObjectOrEmptyList(
  Schema.Struct({
    ...paySceneParamsFields,
    eid: Schema.optionalKey(createOrderSensitive.eid.schema),
  }),
)

/**
 * The parameters as the order returns them: `eid` only as its digest; the
 * payer's `eid`, `email` and `customerId` read `[forgotten]` once the payer
 * is forgotten (docs/api.md#forgotten-personal-data).
 */
export const PaySceneParams = Schema.Struct({
  ...paySceneParamsFields,
  customerId: Schema.optionalKey(Personal(Text)),
  email: Schema.optionalKey(Personal(Text)),
  eid: Schema.optionalKey(Personal(Sha256Hex)),
})

/** A sharing item; decoded, its amount is named in fils as the domain names it. */
export const SharingParam = withDomainNames(
  Schema.Struct({
    sharingIdentitySeqId: SeqId,
    sharingIdentityType: IdentityType,
    sharingIdentity: createOrderSensitive.sharingIdentity.schema,
    sharingMemo: Text,
    sharingAmount: MoneyFromWire,
    withholdAndRemitFee: Schema.optionalKey(Schema.Boolean),
  }),
  { sharingAmount: "sharingAmountFils" },
)

/** "At most one item may have withholdAndRemitFee true, otherwise the request fails." */
export const atMostOneWithholdsFee = Schema.makeFilter(
  (items: ReadonlyArray<{ readonly withholdAndRemitFee?: boolean }>) =>
    items.filter((item) => item.withholdAndRemitFee === true).length <= 1,
  { message: "may have at most one item with withholdAndRemitFee true" },
)

export const PromotionInfo = Schema.Struct({
  appliedRewardId: RequiredString(64),
  settleFlag: Schema.Literals(["YES", "NO"]).annotate({ message: 'must be "YES" or "NO"' }),
})

/**
 * The parts of accessoryContent, named as the domain names them (amounts in
 * fils as `...Fils`) and as the wire names them when encoded. Every part is
 * optional: clients send `{"amountDetail":{},"goodsDetail":{},"terminalDetail":{}}`,
 * and the PHP SDK `[]` for each `{}`.
 */
const AccessoryContentParts = Schema.Struct({
  amountDetail: Schema.optionalKey(
    ObjectOrEmptyList(
      withDomainNames(
        Schema.Struct({
          discountableAmount: Schema.optionalKey(MoneyFromWire),
          amount: Schema.optionalKey(MoneyFromWire),
          vatAmount: Schema.optionalKey(MoneyFromWire),
          tipAmount: Schema.optionalKey(MoneyFromWire),
        }),
        {
          discountableAmount: "discountableAmountFils",
          amount: "amountFils",
          vatAmount: "vatAmountFils",
          tipAmount: "tipAmountFils",
        },
      ),
    ),
  ),
  goodsDetail: Schema.optionalKey(
    ObjectOrEmptyList(
      withDomainNames(
        Schema.Struct({
          body: Schema.optionalKey(BoundedString(200)),
          categoriesTree: Schema.optionalKey(BoundedString(200)),
          goodsCategory: Schema.optionalKey(BoundedString(200)),
          goodsId: Schema.optionalKey(BoundedString(200)),
          goodsName: Schema.optionalKey(BoundedString(200)),
          showUrl: Schema.optionalKey(BoundedString(200)),
          price: Schema.optionalKey(MoneyFromWire),
          quantity: Schema.optionalKey(QuantityFromWire),
        }),
        { price: "priceFils" },
      ),
    ),
  ),
  terminalDetail: Schema.optionalKey(
    ObjectOrEmptyList(
      Schema.Struct({
        operatorId: Schema.optionalKey(BoundedString(200)),
        storeId: Schema.optionalKey(BoundedString(200)),
        terminalId: Schema.optionalKey(BoundedString(200)),
        merchantName: Schema.optionalKey(BoundedString(200)),
        storeName: Schema.optionalKey(BoundedString(200)),
      }),
    ),
  ),
})

/**
 * accessoryContent as it comes. The spec lists `reserved` with it while its
 * sample sends `reserved` at bizContent level: both places are accepted
 * (lenient reading), and the one inside accessoryContent is dropped.
 */
export const AccessoryContent = ObjectOrEmptyList(
  Schema.Struct({ ...AccessoryContentParts.fields, reserved: Schema.optionalKey(BoundedString(200)) }).pipe(
    Schema.decodeTo(
      Schema.toType(AccessoryContentParts),
      SchemaTransformation.transform({
        decode: ({ reserved: _dropped, ...parts }) => parts,
        encode: (parts) => parts,
      }),
    ),
  ),
)

/**
 * Create order as it travels, decoded as the domain's OrderRequest names it:
 * `totalAmount` is `totalAmountFils`, and `currency`, once checked, is
 * dropped (an order is in AED). What is left to the gateway is effectful:
 * the eid and sharing identities decrypted with the service's key, and
 * `expiredTime` moved to the merchant's clock.
 */
export const CreateOrderRequest = withDomainNames(
  Schema.Struct({
    merchantOrderNo: MerchantOrderNo,
    subject: RequiredString(12),
    totalAmount: PositiveMoneyFromWire,
    // The table marks `currency` required, yet clients send the currency only
    // inside totalAmount, as the official SDKs do: optional, and AED when present.
    currency: Schema.optionalKey(Currency),
    expiredTime: Schema.optionalKey(Timestamp),
    payeeMid: Schema.optionalKey(BoundedString(12)),
    paySceneCode: RequiredText,
    paySceneParams: Schema.optionalKey(PaySceneParamsRequest),
    sharingParamList: Schema.optionalKey(Schema.Array(SharingParam).check(atMostOneWithholdsFee)),
    promotionInfoList: Schema.optionalKey(Schema.Array(PromotionInfo)),
    notifyUrl: Schema.optionalKey(NotifyUrl),
    secondaryMerchantId: Schema.optionalKey(BoundedString(200)),
    deviceId: Schema.optionalKey(BoundedString(200)),
    accessoryContent: Schema.optionalKey(AccessoryContent),
    reserved: Schema.optionalKey(BoundedString(200)),
  }),
  { totalAmount: "totalAmountFils" },
  "currency",
)

/** How get order, get order payer, revoke and cancel name an order: exactly one of the two numbers. */
export const OrderIndexRequest = Schema.Struct({
  merchantOrderNo: Schema.optionalKey(MerchantOrderNo),
  orderNo: Schema.optionalKey(OrderNo),
}).check(exactlyOneOf("merchantOrderNo", "orderNo"))

// The acquiring order as responses and notifications carry it.

export const AcquireOrderStatus = Schema.Literals(["CREATED", "PAID_SUCCESS", "SETTLED", "FAILURE"])

/** The card of a DIRECTPAY payment, as the sandbox's pay order takes it. */
export const CardInfoRequest = Schema.Struct({
  brand: Text,
  cardId: Schema.optionalKey(Text),
  last4: Last4,
  cardType: Schema.Literals(["DC", "CC"]),
  expMonth: BoundedString(2),
  expYear: BoundedString(2),
})

/** The card as the order returns it: its id, digits and dates read `[forgotten]` once the payer is forgotten. */
export const CardInfo = Schema.Struct({
  ...CardInfoRequest.fields,
  cardId: Schema.optionalKey(Personal(Text)),
  last4: Personal(Last4),
  expMonth: Personal(BoundedString(2)),
  expYear: Personal(BoundedString(2)),
})

export const PaymentInfo = Schema.Struct({
  paidAmount: MoneyFromWire,
  paidTime: Timestamp,
  // Reads `[forgotten]` once the payer is forgotten, as the card's fields do.
  payerMid: Schema.optionalKey(Personal(Text)),
  payerFeeAmount: Schema.optionalKey(MoneyFromWire),
  payeeFeeAmount: Schema.optionalKey(MoneyFromWire),
  payChannel: Text,
  settlementAmount: MoneyFromWire,
  cardInfo: Schema.optionalKey(CardInfo),
})

export const SharingInfo = Schema.Struct({
  sharingIdentitySeqId: SeqId,
  sharingMid: Text,
  sharingMemo: Text,
  sharingAmount: MoneyFromWire,
  sharingSettledFeeAmount: MoneyFromWire,
  sharingSettledAmount: MoneyFromWire,
  withholdAndRemitFee: Schema.optionalKey(Schema.Boolean),
})

export const AcquireOrder = Schema.Struct({
  requestTime: Timestamp,
  merchantOrderNo: MerchantOrderNo,
  orderNo: Text,
  status: AcquireOrderStatus,
  paymentInfo: Schema.optionalKey(PaymentInfo),
  product: Text,
  totalAmount: MoneyFromWire,
  payeeMid: Text,
  expiredTime: Timestamp,
  // Marked required in the order table but optional in the create request:
  // an order created without one has none to return (lenient reading).
  notifyUrl: Schema.optionalKey(NotifyUrl),
  sharingInfoList: Schema.optionalKey(Schema.Array(SharingInfo)),
  promotionInfoList: Schema.optionalKey(Schema.Array(PromotionInfo)),
  subject: Text,
  accessoryContent: Schema.optionalKey(AccessoryContent),
  paySceneCode: Text,
  // Same contradiction as notifyUrl: required in the table, optional in the request.
  paySceneParams: Schema.optionalKey(PaySceneParams),
  deviceId: Schema.optionalKey(Text),
  secondaryMerchantId: Schema.optionalKey(BoundedString(200)),
  failCode: Schema.optionalKey(Text),
  failDes: Schema.optionalKey(Text),
  revoked: TextBoolean,
  reserved: Schema.optionalKey(BoundedString(200)),
})
export type AcquireOrder = typeof AcquireOrder.Type

/** "Returned only when the order status is CREATED and depends on the scene." */
export const InteractionParams = Schema.Struct({
  tokenUrl: Schema.optionalKey(Text),
  deepLink: Schema.optionalKey(Text),
  threeDSecureDom: Schema.optionalKey(Text),
})

export const CreateOrderResponse = Schema.Struct({
  acquireOrder: AcquireOrder,
  interactionParams: Schema.optionalKey(InteractionParams),
})

/** Get order, revoke and cancel answer the order. */
export const AcquireOrderResponse = Schema.Struct({ acquireOrder: AcquireOrder })

/** Get order payer's answer: every field reads `[forgotten]` once the payer is forgotten. */
export const Payer = Schema.Struct({
  payerMid: Personal(Text),
  mobileNumberMask: Personal(Text),
  deviceId: Personal(Text),
  ipAddress: Personal(Text),
})

export const PayerResponse = Schema.Struct({ payer: Payer })
