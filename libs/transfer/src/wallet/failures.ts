/**
 * Why a wallet transfer fails. The spec says the transfer "fails" on these
 * rules (6. Wallet transfer; Limits) and shows no codes for them, so they
 * are not refusals: the order is recorded with status FAILURE and these
 * failCode / failDes values, which the merchant reads on the order.
 */
import { Schema } from "effect"

export const WalletFailCode = Schema.Literals([
  "TRANSFER_AMOUNT_LIMIT_EXCEEDED",
  "BENEFICIARY_NOT_FOUND",
  "BENEFICIARY_NAME_MISMATCH",
  "BENEFICIARY_BALANCE_LIMIT_EXCEEDED",
])
export type WalletFailCode = typeof WalletFailCode.Type

/** The failDes written for each failCode; never names the beneficiary. */
export const walletFailDescription: Readonly<Record<WalletFailCode, string>> = {
  TRANSFER_AMOUNT_LIMIT_EXCEEDED: "The amount is above AED 10,000, the most one wallet transfer may carry",
  BENEFICIARY_NOT_FOUND: "No member is registered under the beneficiary identity",
  BENEFICIARY_NAME_MISMATCH: "The beneficiary full name does not match the member's identity records",
  BENEFICIARY_BALANCE_LIMIT_EXCEEDED: "The beneficiary's balance plus the amount would exceed AED 20,000",
}

/** The failures the member directory can report when it is asked to credit the beneficiary. */
export const CreditFailCode = Schema.Literals(["BENEFICIARY_NOT_FOUND", "BENEFICIARY_BALANCE_LIMIT_EXCEEDED"])
export type CreditFailCode = typeof CreditFailCode.Type
