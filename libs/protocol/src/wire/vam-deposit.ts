/** The virtual account top-up that the deposit notification carries (docs/api.md#vamdepositorder). */
import { BoundedString, MoneyFromWire, Personal, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"

export const VamDepositOrder = Schema.Struct({
  transactionTime: Timestamp,
  orderNo: BoundedString(32),
  amount: MoneyFromWire,
  // "SUCCESS or FAILED; a sample comment also lists PENDING."
  status: Schema.Literals(["SUCCESS", "FAILED", "PENDING"]),
  referenceNo: Schema.optionalKey(BoundedString(200)),
  // Reads `[forgotten]` once the remitter is forgotten (docs/api.md#forgotten-personal-data).
  remitterInfo: Schema.optionalKey(Personal(BoundedString(200))),
  senderBankCode: Schema.optionalKey(BoundedString(200)),
  depositDetails: Schema.optionalKey(BoundedString(200)),
  // The merchant's own collection account, not a payer's: the spec returns it as it is.
  collectIBAN: Schema.optionalKey(BoundedString(200)),
})
export type VamDepositOrder = typeof VamDepositOrder.Type
