import { FeePlan, Fils, Personal, RequiredString, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { MerchantId, OrderNo, Product } from "../common/fields.ts"
import { CurrencyAmount } from "../payout/currency.ts"
import { Rate } from "../payout/rate.ts"
import { BankTransferTerms } from "./commands.ts"

/**
 * The order as placed (CREATED), its rate and fee fixed: the quote the bank will pay out.
 * Stored under the wire's names (`amount`, `payerFeeAmount`), as every event so far was written; the domain reads fils.
 */
export const BankTransferPlaced = Schema.TaggedStruct("BankTransferPlaced", {
  merchantId: MerchantId,
  orderNo: OrderNo,
  requestTime: Timestamp,
  createdTime: Timestamp,
  product: Product,
  ...BankTransferTerms.fields,
  // Personal (sealingPlan.ts): `[forgotten]` once the IBAN holder is forgotten.
  holderName: Personal(Sha256Hex),
  iban: Personal(Sha256Hex),
  accountNo: Schema.optionalKey(Personal(Sha256Hex)),
  beneficiaryAddress: Schema.optionalKey(Personal(Sha256Hex)),
  /** The fee of the payout network, on top of the amount (paymentInfo.payerFeeAmount). */
  payerFeeFils: Fils,
  /** The plan the fee was computed with, so the audit can recompute it. */
  feePlan: FeePlan,
  fundoutAmount: CurrencyAmount,
  rate: Rate,
  /**
   * When the money is expected to arrive (paymentInfo.arrivalTime while
   * CREATED): the placement plus the network's usual delay. Optional within
   * version 1 rather than a version 2: orders placed before it was recorded
   * have none, and no upcaster could make one up (the delay was not
   * recorded), while a reader that predates it still reads every event.
   */
  expectedArrivalTime: Schema.optionalKey(Timestamp),
}).pipe(Schema.encodeKeys({ amountFils: "amount", payerFeeFils: "payerFeeAmount" }))
export type BankTransferPlaced = typeof BankTransferPlaced.Type

export const BankTransferSucceeded = Schema.TaggedStruct("BankTransferSucceeded", {
  bankReference: RequiredString(128),
  arrivalTime: Timestamp,
  at: Timestamp,
})
export type BankTransferSucceeded = typeof BankTransferSucceeded.Type

export const BankTransferFailed = Schema.TaggedStruct("BankTransferFailed", {
  failDes: RequiredString(200),
  at: Timestamp,
})
export type BankTransferFailed = typeof BankTransferFailed.Type

export const Event = Schema.Union([BankTransferPlaced, BankTransferSucceeded, BankTransferFailed])
export type Event = typeof Event.Type

export const eventVersions = {
  BankTransferPlaced: { current: 1 },
  BankTransferSucceeded: { current: 1 },
  BankTransferFailed: { current: 1 },
} as const

/**
 * The status changes the notifier announces (spec: Event "bank transfer
 * order status change": CREATED to SUCCESS or FAILURE, when the order has
 * a notifyUrl), with the order as `transferToBankOrder`.
 */
export const announcedEvents: ReadonlyArray<Event["_tag"]> = ["BankTransferSucceeded", "BankTransferFailed"]
