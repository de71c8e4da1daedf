import { BoundedString, PositiveFils, RequiredString, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { MerchantId, MerchantOrderNo, NotifyUrl, OrderNo } from "../common/fields.ts"
import { type FundoutChoice, NetworkCode, PayoutAbility } from "../payout/abilities.ts"
import { Rate } from "../payout/rate.ts"

/** A bank identifier code: 8 to 11 characters (spec: Bank transfer order, swiftCode). */
export const SwiftCode = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9]{8,11}$/, { message: "must be 8 to 11 letters and digits" }),
)

/** A US Fedwire routing number: exactly 9 digits when present. */
export const FedwireCode = Schema.String.check(Schema.isPattern(/^[0-9]{9}$/, { message: "must be exactly 9 digits" }))

/** Values of the fields the spec gives defaults (9. Query IBAN holder name, request). */
export const bankTransferDefaults = {
  networkCode: "LOCAL",
  countryCode: "AE",
  fundoutCurrencyCode: "AED",
  beneficiaryType: "IBAN",
} as const

/**
 * The fields of the spec's bank transfer order (`transferToBankOrder`) the
 * merchant sends, with its lengths; the request of "10. Place bank
 * transfer" is not shown, so the order's fields and the IBAN holder name
 * request's shared fields make it. Names, IBAN, address and account number
 * arrive encrypted and are kept as digests. purposeCode has no length in
 * the spec: 35, ISO 20022's longest purpose text.
 */
const bankTransferFields = {
  merchantOrderNo: MerchantOrderNo,
  amountFils: PositiveFils,
  holderName: Sha256Hex,
  iban: Sha256Hex,
  swiftCode: Schema.optionalKey(SwiftCode),
  fedwireCode: Schema.optionalKey(FedwireCode),
  accountNo: Schema.optionalKey(Sha256Hex),
  beneficiaryAddress: Schema.optionalKey(Sha256Hex),
  bankName: Schema.optionalKey(BoundedString(64)),
  branchName: Schema.optionalKey(BoundedString(35)),
  intermediaryBank: Schema.optionalKey(BoundedString(12)),
  purposeCode: Schema.optionalKey(BoundedString(35)),
  memo: Schema.optionalKey(BoundedString(128)),
  notifyUrl: Schema.optionalKey(NotifyUrl),
}

const defaultedFields = {
  networkCode: NetworkCode,
  countryCode: RequiredString(16),
  fundoutCurrencyCode: RequiredString(16),
  beneficiaryType: RequiredString(16),
}

/** The request as the merchant sent it: the defaulted fields may be absent. */
export const BankTransferRequest = Schema.Struct({
  ...bankTransferFields,
  networkCode: Schema.optionalKey(defaultedFields.networkCode),
  countryCode: Schema.optionalKey(defaultedFields.countryCode),
  fundoutCurrencyCode: Schema.optionalKey(defaultedFields.fundoutCurrencyCode),
  beneficiaryType: Schema.optionalKey(defaultedFields.beneficiaryType),
})
export type BankTransferRequest = typeof BankTransferRequest.Type

/** The request with its defaults applied: what the order records and what a repeat is compared on. */
export const BankTransferTerms = Schema.Struct({ ...bankTransferFields, ...defaultedFields })
export type BankTransferTerms = typeof BankTransferTerms.Type

/** The network and currency a bank transfer request chooses, saying which of them it left to the default. */
export const fundoutChoiceOf = (request: {
  readonly networkCode?: string | undefined
  readonly fundoutCurrencyCode?: string | undefined
}): FundoutChoice => ({
  networkCode: request.networkCode ?? bankTransferDefaults.networkCode,
  fundoutCurrencyCode: request.fundoutCurrencyCode ?? bankTransferDefaults.fundoutCurrencyCode,
  defaulted: (["networkCode", "fundoutCurrencyCode"] as const).filter((field) => request[field] === undefined),
})

export const withDefaults = (request: BankTransferRequest): BankTransferTerms => ({
  ...request,
  networkCode: request.networkCode ?? bankTransferDefaults.networkCode,
  countryCode: request.countryCode ?? bankTransferDefaults.countryCode,
  fundoutCurrencyCode: request.fundoutCurrencyCode ?? bankTransferDefaults.fundoutCurrencyCode,
  beneficiaryType: request.beneficiaryType ?? bankTransferDefaults.beneficiaryType,
})

/**
 * Lengths of clear values measured at the edge before they were digested
 * (in code points, `charCount`): the digests cannot say how long a name
 * was, and the spec limits holderName plus beneficiaryAddress to 140
 * characters. The edge also checks the clear IBAN with `parseIban` (62101)
 * before it digests it.
 */
export const ClearTextLengths = Schema.Struct({
  holderNameChars: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  beneficiaryAddressChars: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
})
export type ClearTextLengths = typeof ClearTextLengths.Type

export const PlaceBankTransfer = Schema.TaggedStruct("PlaceBankTransfer", {
  merchantId: MerchantId,
  orderNo: OrderNo,
  requestTime: Timestamp,
  now: Timestamp,
  request: BankTransferRequest,
  clearLengths: ClearTextLengths,
  /** The merchant's payout abilities, from configuration (`fundoutTermsOf`). */
  abilities: Schema.Array(PayoutAbility),
  /** The rate source's rate for the payout currency now; it is fixed on the order. */
  rate: Rate,
  /**
   * How long the order's network usually takes to pay out, from configuration
   * (the gateway's `bankTransferArrivalMinutes`): the order expects its money
   * to arrive this long after its placement, until the bank says when it did.
   */
  arrivalDelayMinutes: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
})
export type PlaceBankTransfer = typeof PlaceBankTransfer.Type

/** The bank's outcome, as the bank (the sandbox, in test) reports it. */
export const BankOutcome = Schema.Union([
  Schema.TaggedStruct("Succeeded", { bankReference: RequiredString(128), arrivalTime: Timestamp }),
  Schema.TaggedStruct("Failed", { failDes: RequiredString(200) }),
])
export type BankOutcome = typeof BankOutcome.Type

export const RecordBankOutcome = Schema.TaggedStruct("RecordBankOutcome", {
  merchantId: MerchantId,
  now: Timestamp,
  outcome: BankOutcome,
})
export type RecordBankOutcome = typeof RecordBankOutcome.Type

export const Command = Schema.Union([PlaceBankTransfer, RecordBankOutcome])
export type Command = typeof Command.Type
