import { BoundedString, PositiveFils, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { MerchantId, NotifyUrl, OrderNo } from "../common/fields.ts"

export const DepositStatus = Schema.Literals(["PENDING", "SUCCESS", "FAILED"])
export type DepositStatus = typeof DepositStatus.Type

/**
 * A virtual-account top-up as the bank reports it, with the fields of
 * `vamDepositOrder` (spec: Event "virtual account top-up"). remitterInfo
 * names the sender and collectIBAN is an IBAN, so both are kept as SHA-256
 * digests (the edge digests them), as every name and IBAN is.
 */
export const VamDepositReport = Schema.Struct({
  orderNo: OrderNo,
  transactionTime: Timestamp,
  amountFils: PositiveFils,
  status: DepositStatus,
  referenceNo: Schema.optionalKey(BoundedString(200)),
  remitterInfo: Schema.optionalKey(Sha256Hex),
  senderBankCode: Schema.optionalKey(BoundedString(200)),
  depositDetails: Schema.optionalKey(BoundedString(200)),
  collectIBAN: Schema.optionalKey(Sha256Hex),
})
export type VamDepositReport = typeof VamDepositReport.Type

export const RecordVamDeposit = Schema.TaggedStruct("RecordVamDeposit", {
  merchantId: MerchantId,
  now: Timestamp,
  deposit: VamDepositReport,
  /** Where the merchant takes top-up notifications, from its configuration. */
  notifyUrl: Schema.optionalKey(NotifyUrl),
})
export type RecordVamDeposit = typeof RecordVamDeposit.Type

export const Command = RecordVamDeposit
export type Command = RecordVamDeposit
