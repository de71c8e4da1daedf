import { FeePlan, Fils, PositiveFils, RequiredString, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { MerchantId, MerchantOrderNo, NotifyUrl, OrderNo } from "../common/fields.ts"
import { CreditFailCode } from "./failures.ts"

export const BeneficiaryIdentityType = Schema.Literals(["PHONE_NO", "MEMBER_ID"])
export type BeneficiaryIdentityType = typeof BeneficiaryIdentityType.Type

/**
 * The merchant's parameters (spec: 6. Wallet transfer, request). The
 * identity and full name arrive encrypted or as SHA-256 and are kept only
 * as digests. memo takes the request table's String(200) (the order table
 * says 128): refusing what the request table allows would break merchants.
 */
export const WalletTransferRequest = Schema.Struct({
  merchantOrderNo: MerchantOrderNo,
  beneficiaryIdentityType: BeneficiaryIdentityType,
  beneficiaryIdentity: Sha256Hex,
  beneficiaryFullName: Schema.optionalKey(Sha256Hex),
  amountFils: PositiveFils,
  memo: RequiredString(200),
  notifyUrl: Schema.optionalKey(NotifyUrl),
})
export type WalletTransferRequest = typeof WalletTransferRequest.Type

/** What the member directory answered for the beneficiary identity, looked up at the edge. */
export const Beneficiary = Schema.Union([
  Schema.TaggedStruct("MemberFound", {
    /** The member's id in the directory: what answers name as `sharingMid`. */
    memberId: Schema.optionalKey(Schema.String),
    /** The digest of the member's full name on record. */
    fullName: Sha256Hex,
    balanceFils: Fils,
  }),
  Schema.TaggedStruct("MemberNotFound", {}),
])
export type Beneficiary = typeof Beneficiary.Type

export const PlaceWalletTransfer = Schema.TaggedStruct("PlaceWalletTransfer", {
  merchantId: MerchantId,
  /** The service's order number, generated at the edge. */
  orderNo: OrderNo,
  requestTime: Timestamp,
  now: Timestamp,
  request: WalletTransferRequest,
  beneficiary: Beneficiary,
  /** The merchant's fee plan for wallet transfers, from configuration. */
  feePlan: FeePlan,
})
export type PlaceWalletTransfer = typeof PlaceWalletTransfer.Type

/** What the member directory did when asked to credit the beneficiary of a CREATED transfer. */
export const CreditOutcome = Schema.Union([
  Schema.TaggedStruct("Credited", {}),
  Schema.TaggedStruct("NotCredited", { failCode: CreditFailCode }),
])
export type CreditOutcome = typeof CreditOutcome.Type

export const SettleWalletTransfer = Schema.TaggedStruct("SettleWalletTransfer", {
  merchantId: MerchantId,
  now: Timestamp,
  outcome: CreditOutcome,
})
export type SettleWalletTransfer = typeof SettleWalletTransfer.Type

export const Command = Schema.Union([PlaceWalletTransfer, SettleWalletTransfer])
export type Command = typeof Command.Type
