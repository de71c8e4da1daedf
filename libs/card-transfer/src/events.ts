import { BoundedString, FeePlan, Fils, Personal, RequiredString, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { BankCardTransferTerms } from "./commands.ts"
import { MerchantId, OrderNo } from "./shared.ts"

/**
 * The order as placed (CREATED). Names and card number are SHA-256
 * digests; cardLast4 is the only clear part of the card. No field can hold
 * a CardNumber, so the clear number cannot be written. The card's fields
 * are personal (sealingPlan.ts): stored sealed, and read as `[forgotten]`
 * once the card holder is forgotten.
 */
export const BankCardTransferPlaced = Schema.TaggedStruct("BankCardTransferPlaced", {
  merchantId: MerchantId,
  orderNo: OrderNo,
  requestTime: Timestamp,
  createdTime: Timestamp,
  product: RequiredString(200),
  ...BankCardTransferTerms.fields,
  firstName: Schema.optionalKey(Personal(Sha256Hex)),
  lastName: Schema.optionalKey(Personal(Sha256Hex)),
  middleName: Schema.optionalKey(Personal(Sha256Hex)),
  companyName: Schema.optionalKey(Personal(Sha256Hex)),
  expiryYear: Personal(BoundedString(4)),
  expiryMonth: Personal(BoundedString(2)),
  cardNumber: Personal(Sha256Hex),
  cardLast4: Personal(Schema.String.check(Schema.isPattern(/^[0-9]{4}$/, { message: "must be 4 digits" }))),
  payerFeeAmount: Fils,
  feePlan: FeePlan,
  payerFeeMemberId: RequiredString(32),
  /** When the amount and fee were deducted from the payer: at placement. */
  paidTime: Timestamp,
})
export type BankCardTransferPlaced = typeof BankCardTransferPlaced.Type

export const BankCardTransferSucceeded = Schema.TaggedStruct("BankCardTransferSucceeded", {
  bankReference: RequiredString(128),
  at: Timestamp,
})
export type BankCardTransferSucceeded = typeof BankCardTransferSucceeded.Type

/** The bank declined the payout: BANK_FAIL. */
export const BankCardTransferDeclined = Schema.TaggedStruct("BankCardTransferDeclined", {
  failDes: RequiredString(200),
  at: Timestamp,
})
export type BankCardTransferDeclined = typeof BankCardTransferDeclined.Type

/** The payout failed for another reason: FAILURE. */
export const BankCardTransferFailed = Schema.TaggedStruct("BankCardTransferFailed", {
  failDes: RequiredString(200),
  at: Timestamp,
})
export type BankCardTransferFailed = typeof BankCardTransferFailed.Type

/** The deducted amount of a failed payout went back to the payer. */
export const BankCardTransferRefunded = Schema.TaggedStruct("BankCardTransferRefunded", { refundedTime: Timestamp })
export type BankCardTransferRefunded = typeof BankCardTransferRefunded.Type

export const Event = Schema.Union([
  BankCardTransferPlaced,
  BankCardTransferSucceeded,
  BankCardTransferDeclined,
  BankCardTransferFailed,
  BankCardTransferRefunded,
])
export type Event = typeof Event.Type

export const eventVersions = {
  BankCardTransferPlaced: { current: 1 },
  BankCardTransferSucceeded: { current: 1 },
  BankCardTransferDeclined: { current: 1 },
  BankCardTransferFailed: { current: 1 },
  BankCardTransferRefunded: { current: 1 },
} as const

/** The changes the notifier announces to an order's notifyUrl, as `transferBankCardOrder`. */
export const announcedEvents: ReadonlyArray<Event["_tag"]> = [
  "BankCardTransferSucceeded",
  "BankCardTransferDeclined",
  "BankCardTransferFailed",
  "BankCardTransferRefunded",
]
