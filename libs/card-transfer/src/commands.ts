import { BoundedString, FeePlan, PositiveFils, RequiredString, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { CardNumber } from "./cardNumber.ts"
import { LegalNameShape } from "./legalName.ts"
import { MerchantId, MerchantOrderNo, NotifyUrl, OrderNo } from "./shared.ts"

export const AccountHolderType = Schema.Literals(["INDIVIDUAL", "CORPORATE"])
export type AccountHolderType = typeof AccountHolderType.Type

/**
 * The merchant's parameters (spec: 12. Bank card transfer, request), names
 * as SHA-256 digests. Which names are required depends on accountHolderType,
 * a rule the decider checks with its own message. memo is the request's
 * String(50). The card number is not here: it travels as a CardNumber.
 */
export const BankCardTransferRequest = Schema.Struct({
  merchantOrderNo: MerchantOrderNo,
  accountHolderType: AccountHolderType,
  firstName: Schema.optionalKey(Sha256Hex),
  lastName: Schema.optionalKey(Sha256Hex),
  middleName: Schema.optionalKey(Sha256Hex),
  companyName: Schema.optionalKey(Sha256Hex),
  amountFils: PositiveFils,
  memo: Schema.optionalKey(BoundedString(50)),
  notifyUrl: Schema.optionalKey(NotifyUrl),
  expiryYear: BoundedString(4),
  expiryMonth: BoundedString(2),
})
export type BankCardTransferRequest = typeof BankCardTransferRequest.Type

/** What a repeat is compared on: the request and the card number's digest. */
export const BankCardTransferTerms = Schema.Struct({ ...BankCardTransferRequest.fields, cardNumber: Sha256Hex })
export type BankCardTransferTerms = typeof BankCardTransferTerms.Type

export const CardNumberValue = Schema.declare((input: unknown): input is CardNumber => input instanceof CardNumber, {
  expected: "a CardNumber",
})

export const PlaceBankCardTransfer = Schema.TaggedStruct("PlaceBankCardTransfer", {
  merchantId: MerchantId,
  orderNo: OrderNo,
  requestTime: Timestamp,
  now: Timestamp,
  request: BankCardTransferRequest,
  /** The clear card number with its digest: the decider keeps only the digest and last 4. */
  cardNumber: CardNumberValue,
  /** `legalNameShape` of the clear companyName, measured at the edge; required for CORPORATE. */
  companyNameShape: Schema.optionalKey(LegalNameShape),
  /** The products enabled for the merchant, from configuration. */
  enabledProducts: Schema.Array(Schema.String),
  /** The merchant's fee plan for bank card transfers, from configuration. */
  feePlan: FeePlan,
  /** The party that pays the fee (String(32)), from configuration. */
  payerFeeMemberId: RequiredString(32),
})
export type PlaceBankCardTransfer = typeof PlaceBankCardTransfer.Type

/** The bank's outcome of the payout: paid (SUCCESS), declined by the bank (BANK_FAIL), or failed (FAILURE). */
export const CardPayoutOutcome = Schema.Union([
  Schema.TaggedStruct("Paid", { bankReference: RequiredString(128) }),
  Schema.TaggedStruct("BankDeclined", { failDes: RequiredString(200) }),
  Schema.TaggedStruct("Failed", { failDes: RequiredString(200) }),
])
export type CardPayoutOutcome = typeof CardPayoutOutcome.Type

export const RecordCardPayoutOutcome = Schema.TaggedStruct("RecordCardPayoutOutcome", {
  merchantId: MerchantId,
  now: Timestamp,
  outcome: CardPayoutOutcome,
})
export type RecordCardPayoutOutcome = typeof RecordCardPayoutOutcome.Type

/** The amount of a failed payout has been returned to the payer: sets refundedTime. */
export const RecordPayoutRefund = Schema.TaggedStruct("RecordPayoutRefund", {
  merchantId: MerchantId,
  now: Timestamp,
})
export type RecordPayoutRefund = typeof RecordPayoutRefund.Type

export const Command = Schema.Union([PlaceBankCardTransfer, RecordCardPayoutOutcome, RecordPayoutRefund])
export type Command = typeof Command.Type
