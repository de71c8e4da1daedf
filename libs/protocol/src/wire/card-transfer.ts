/**
 * Bank card transfer and its query (docs/api.md#bank-card-transfer,
 * docs/api.md#get-bank-card-transfer).
 */
import { BoundedString, MoneyFromWire, Personal, PositiveMoneyFromWire, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { MerchantOrderNo, NotifyUrl, sensitiveField, Text, withDomainNames } from "./fields.ts"

/**
 * Every card field is encrypted, and none may come as a digest: the service
 * checks the clear values at the edge (12 to 19 digits, expiry not past, a
 * legal company name) before it keeps their digests and the card's last 4.
 */
export const cardTransferSensitive = {
  firstName: sensitiveField(50, "encrypted"),
  lastName: sensitiveField(50, "encrypted"),
  middleName: sensitiveField(50, "encrypted"),
  companyName: sensitiveField(50, "encrypted"),
  expiryYear: sensitiveField(4, "encrypted"),
  expiryMonth: sensitiveField(2, "encrypted"),
  cardNumber: sensitiveField(50, "encrypted"),
} as const

export const AccountHolderType = Schema.Literals(["INDIVIDUAL", "CORPORATE"]).annotate({
  message: 'must be "INDIVIDUAL" or "CORPORATE"',
})

/** "firstName, lastName: required when INDIVIDUAL; companyName: required when CORPORATE." */
const holderNamesPresent = Schema.makeFilter(
  (request: {
    readonly accountHolderType: "INDIVIDUAL" | "CORPORATE"
    readonly firstName?: string
    readonly lastName?: string
    readonly companyName?: string
  }) => {
    const required =
      request.accountHolderType === "INDIVIDUAL" ? (["firstName", "lastName"] as const) : (["companyName"] as const)
    return required
      .filter((field) => request[field] === undefined)
      .map((field) => ({ path: [field], issue: `is required when accountHolderType is ${request.accountHolderType}` }))
  },
)

/** The bank card transfer request; decoded, its amount is named in fils (`amountFils`) as the domain names it. */
export const CardTransferRequest = withDomainNames(
  Schema.Struct({
    accountHolderType: AccountHolderType,
    merchantOrderNo: MerchantOrderNo,
    firstName: Schema.optionalKey(cardTransferSensitive.firstName.schema),
    lastName: Schema.optionalKey(cardTransferSensitive.lastName.schema),
    middleName: Schema.optionalKey(cardTransferSensitive.middleName.schema),
    companyName: Schema.optionalKey(cardTransferSensitive.companyName.schema),
    amount: PositiveMoneyFromWire,
    memo: Schema.optionalKey(BoundedString(50)),
    notifyUrl: Schema.optionalKey(NotifyUrl),
    expiryYear: cardTransferSensitive.expiryYear.schema,
    expiryMonth: cardTransferSensitive.expiryMonth.schema,
    cardNumber: cardTransferSensitive.cardNumber.schema,
  }).check(holderNamesPresent),
  { amount: "amountFils" },
)

export const CardTransferStatus = Schema.Literals(["CREATED", "SUCCESS", "FAILURE", "BANK_FAIL"])

export const TransferBankCardOrder = Schema.Struct({
  // Required in the table, but "the sample shows createdTime instead": optional (lenient reading).
  requestTime: Schema.optionalKey(Timestamp),
  merchantOrderNo: MerchantOrderNo,
  orderNo: BoundedString(32),
  product: BoundedString(200),
  status: CardTransferStatus,
  amount: MoneyFromWire,
  accountHolderType: AccountHolderType,
  // The card's fields read `[forgotten]` once its holder is forgotten (docs/api.md#forgotten-personal-data).
  firstName: Schema.optionalKey(Personal(Sha256Hex)),
  lastName: Schema.optionalKey(Personal(Sha256Hex)),
  middleName: Schema.optionalKey(Personal(Sha256Hex)),
  companyName: Schema.optionalKey(Personal(Sha256Hex)),
  cardNumber: Personal(Sha256Hex),
  expiryMonth: Personal(BoundedString(2)),
  expiryYear: Personal(BoundedString(4)),
  memo: Schema.optionalKey(BoundedString(128)),
  notifyUrl: Schema.optionalKey(NotifyUrl),
  failDes: Schema.optionalKey(BoundedString(200)),
  bankReference: Schema.optionalKey(BoundedString(128)),
  payerFeeAmount: MoneyFromWire,
  payerFeeMemberId: BoundedString(32),
  // "Date (a Timestamp in the sample)".
  paidTime: Timestamp,
  refundedTime: Schema.optionalKey(Timestamp),
  partnerId: Schema.optionalKey(Text),
  createdTime: Schema.optionalKey(Timestamp),
})
export type TransferBankCardOrder = typeof TransferBankCardOrder.Type

/**
 * The spec names the container `transferToBankCard` in the response sample
 * and `transferBankCardOrder` in the field description. Responses use
 * `transferToBankCard`, the key the service's own sample carries on the wire
 * and so the one a client written against it reads; notifications use
 * `transferBankCardOrder` (docs/api.md#notifications).
 */
export const cardTransferResponseKey = "transferToBankCard"

export const CardTransferResponse = Schema.Struct({ [cardTransferResponseKey]: TransferBankCardOrder })
