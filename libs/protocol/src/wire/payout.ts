/**
 * Payout helpers and bank transfers: payout ability list, rate calculator,
 * IBAN holder name, place and get bank transfer
 * (docs/api.md#payout-ability-list to docs/api.md#get-bank-transfer).
 */
import {
  BoundedString,
  MoneyFromWire,
  Personal,
  PositiveMoneyFromWire,
  RequiredString,
  Sha256Hex,
  Timestamp,
} from "@mizan/kernel"
import { Schema, SchemaTransformation } from "effect"
import {
  CurrencyCode,
  ForeignMoneyFromWire,
  MerchantOrderNo,
  NotifyUrl,
  RateFromWire,
  sensitiveField,
  Text,
  withDomainNames,
} from "./fields.ts"

/**
 * Operations whose request is "only requestTime": bizContent absent, or an
 * object (some clients send `{}`) whose content is ignored. Decodes to nothing.
 */
export const NoBizContent = Schema.UndefinedOr(Schema.Record(Schema.String, Schema.Unknown))
  .annotate({ message: "must be an object, or absent" })
  .pipe(
    Schema.decodeTo(
      Schema.Undefined,
      SchemaTransformation.transform<undefined, Readonly<Record<string, unknown>> | undefined>({
        decode: () => undefined,
        encode: () => undefined,
      }),
    ),
  )

export const FundoutAbility = Schema.Struct({
  countryCode: Text,
  fundoutCurrencyCode: Schema.optionalKey(Text),
  networkCode: Text,
  name: Text,
  beneficiaryType: Text,
})

export const FundoutAbilityListResponse = Schema.Struct({ fundoutAbilityList: Schema.Array(FundoutAbility) })

export const CalculateFundoutRequest = Schema.Struct({
  networkCode: RequiredString(20),
  fundoutCurrencyCode: RequiredString(20),
  orderAmount: PositiveMoneyFromWire,
})

export const FundoutInfo = Schema.Struct({
  orderAmount: MoneyFromWire,
  // Money, but in the currency received, which "may be another currency".
  fundoutAmount: ForeignMoneyFromWire,
  feeAmount: MoneyFromWire,
  networkCode: BoundedString(20),
  rate: RateFromWire,
})

export const CalculateFundoutResponse = Schema.Struct({ fundoutInfo: FundoutInfo })

/**
 * Clear lengths of the encrypted bank fields. The IBAN query's table says
 * String(256) for holderName and iban; the bank transfer order bounds the
 * values it keeps at 100 (holder name), 34 (IBAN), 140 (address, with the
 * holder name: "at most 140 characters") and 64 (account number). The
 * request bound is the larger, so a value the order can hold is never refused
 * at the door, and the gateway applies the order's bounds.
 */
export const bankSensitive = {
  holderName: sensitiveField(256, "encrypted"),
  iban: sensitiveField(256, "encrypted"),
  beneficiaryAddress: sensitiveField(140, "encrypted"),
  accountNo: sensitiveField(64, "encrypted"),
} as const

/** The beneficiary bank fields shared by the IBAN query and the bank transfer; all optional in both. */
const bankDetailsFields = {
  swiftCode: Schema.optionalKey(BoundedString(11)),
  beneficiaryAddress: Schema.optionalKey(bankSensitive.beneficiaryAddress.schema),
  notifyUrl: Schema.optionalKey(NotifyUrl),
  accountNo: Schema.optionalKey(bankSensitive.accountNo.schema),
  networkCode: Schema.optionalKey(BoundedString(20)),
  bankName: Schema.optionalKey(BoundedString(64)),
  countryCode: Schema.optionalKey(BoundedString(16)),
  cityCode: Schema.optionalKey(Text),
  fundoutCurrencyCode: Schema.optionalKey(BoundedString(16)),
  fedwireCode: Schema.optionalKey(Text),
  branchName: Schema.optionalKey(BoundedString(35)),
  intermediaryBank: Schema.optionalKey(BoundedString(12)),
  beneficiaryType: Schema.optionalKey(BoundedString(16)),
  purposeCode: Schema.optionalKey(Text),
}

/**
 * The IBAN query. Its table (which reads like the bank transfer's) marks
 * merchantOrderNo, amount and memo required and iban both optional and
 * required, while "the request sample sends only holderName, iban and
 * requestTime": the lenient reading requires only holderName. An absent iban
 * is no valid IBAN, which the gateway answers with 62101.
 */
export const IbanHolderNameRequest = Schema.Struct({
  merchantOrderNo: Schema.optionalKey(MerchantOrderNo),
  holderName: bankSensitive.holderName.schema,
  iban: Schema.optionalKey(bankSensitive.iban.schema),
  amount: Schema.optionalKey(PositiveMoneyFromWire),
  memo: Schema.optionalKey(BoundedString(128)),
  ...bankDetailsFields,
})

/**
 * The spec lists no values of the match fields; PayBy's published
 * documentation answers `"nameMatchingLevel": "1"` and
 * `"nameMatchingResult": "TRUE"`, the only values published, so the
 * service answers in that form: a level as a number's text, 1 the closest,
 * and a result of TRUE or FALSE (what each means: docs/api.md#iban-holder-name-matching).
 */
export const WireNameMatchingLevel = Schema.Literals(["1", "2", "3", "4"])
export type WireNameMatchingLevel = typeof WireNameMatchingLevel.Type
export const WireNameMatchingResult = Schema.Literals(["TRUE", "FALSE"])
export type WireNameMatchingResult = typeof WireNameMatchingResult.Type

export const IbanHolderName = Schema.Struct({
  holderNameMask: Schema.optionalKey(Text),
  nameMatchingLevel: Schema.optionalKey(WireNameMatchingLevel),
  nameMatchingResult: Schema.optionalKey(WireNameMatchingResult),
})

export const IbanHolderNameResponse = Schema.Struct({ ibanHolderName: IbanHolderName })

/**
 * Place bank transfer: the spec shows neither path nor fields; these are the
 * service's published ones, which are the IBAN query's table with its
 * required marks: merchantOrderNo, holderName, iban, amount and memo.
 * Decoded, the amount is named in fils (`amountFils`) as the domain names
 * it, and `cityCode`, accepted on the wire (the IBAN query's table), is
 * dropped: the order has no such field.
 */
export const BankTransferRequest = withDomainNames(
  Schema.Struct({
    merchantOrderNo: MerchantOrderNo,
    holderName: bankSensitive.holderName.schema,
    iban: bankSensitive.iban.schema,
    amount: PositiveMoneyFromWire,
    memo: BoundedString(128),
    ...bankDetailsFields,
  }),
  { amount: "amountFils" },
  "cityCode",
)

export const TransferToBankOrder = Schema.Struct({
  requestTime: Timestamp,
  merchantOrderNo: MerchantOrderNo,
  orderNo: Text,
  product: Text,
  // "Full list of status values of the bank transfer order: not shown."
  status: Text,
  paymentInfo: Schema.optionalKey(
    Schema.Struct({
      payerFeeAmount: Schema.optionalKey(MoneyFromWire),
      arrivalTime: Schema.optionalKey(Timestamp),
    }),
  ),
  amount: MoneyFromWire,
  // The IBAN holder's fields read `[forgotten]` once the holder is forgotten (docs/api.md#forgotten-personal-data).
  holderName: Personal(Sha256Hex),
  iban: Personal(Sha256Hex),
  swiftCode: Schema.optionalKey(BoundedString(11)),
  memo: Schema.optionalKey(BoundedString(128)),
  notifyUrl: Schema.optionalKey(NotifyUrl),
  failDes: Schema.optionalKey(Text),
  beneficiaryAddress: Schema.optionalKey(Personal(Sha256Hex)),
  bankReference: Schema.optionalKey(Text),
  fundoutAmount: Schema.optionalKey(ForeignMoneyFromWire),
  rate: Schema.optionalKey(RateFromWire),
  networkCode: BoundedString(20),
  countryCode: Schema.optionalKey(BoundedString(16)),
  bankName: Schema.optionalKey(BoundedString(64)),
  fedwireCode: Schema.optionalKey(
    Schema.String.check(
      Schema.makeFilter((s: string) => /^[0-9]{9}$/.test(s), { message: "must be exactly 9 digits" }),
    ),
  ),
  intermediaryBank: Schema.optionalKey(BoundedString(12)),
  branchName: Schema.optionalKey(BoundedString(35)),
  beneficiaryType: BoundedString(16),
  purposeCode: Schema.optionalKey(Text),
  // Sent encrypted, so returned as a digest like every encrypted field (docs/api.md#encrypted-fields).
  accountNo: Schema.optionalKey(Personal(Sha256Hex)),
  fundoutCurrencyCode: Schema.optionalKey(CurrencyCode),
})
export type TransferToBankOrder = typeof TransferToBankOrder.Type

export const TransferToBankOrderResponse = Schema.Struct({ transferToBankOrder: TransferToBankOrder })
