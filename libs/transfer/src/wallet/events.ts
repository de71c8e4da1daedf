import { Fils, Personal, RequiredString, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { MerchantId, OrderNo, Product } from "../common/fields.ts"
import { WalletTransferRequest } from "./commands.ts"
import { WalletFailCode } from "./failures.ts"

/** The order as placed: status CREATED. Identity and full name are digests. */
export const WalletTransferPlaced = Schema.TaggedStruct("WalletTransferPlaced", {
  merchantId: MerchantId,
  orderNo: OrderNo,
  requestTime: Timestamp,
  createdTime: Timestamp,
  product: Product,
  ...WalletTransferRequest.fields,
  // Personal (sealingPlan.ts): `[forgotten]` once the member is forgotten.
  beneficiaryIdentity: Personal(Sha256Hex),
  beneficiaryFullName: Schema.optionalKey(Personal(Sha256Hex)),
  payerFeeAmount: Fils,
  /** Estimated arrival: the credit is booked in the same request, so the placement time. */
  arrivalTime: Timestamp,
  /** The beneficiary's balance as the member directory reported it; absent when no member was found. */
  beneficiaryBalanceFils: Schema.optionalKey(Fils),
})
export type WalletTransferPlaced = typeof WalletTransferPlaced.Type

export const WalletTransferSucceeded = Schema.TaggedStruct("WalletTransferSucceeded", { at: Timestamp })
export type WalletTransferSucceeded = typeof WalletTransferSucceeded.Type

export const WalletTransferFailed = Schema.TaggedStruct("WalletTransferFailed", {
  failCode: WalletFailCode,
  failDes: RequiredString(200),
  at: Timestamp,
})
export type WalletTransferFailed = typeof WalletTransferFailed.Type

export const Event = Schema.Union([WalletTransferPlaced, WalletTransferSucceeded, WalletTransferFailed])
export type Event = typeof Event.Type

/** Every event type and its schema version (all at 1: no shape has changed yet). */
export const eventVersions = {
  WalletTransferPlaced: { current: 1 },
  WalletTransferSucceeded: { current: 1 },
  WalletTransferFailed: { current: 1 },
} as const

/** The status changes the notifier announces to an order's notifyUrl. */
export const announcedEvents: ReadonlyArray<Event["_tag"]> = ["WalletTransferSucceeded", "WalletTransferFailed"]
