import { fils } from "@mizan/kernel"

/** At most AED 10,000 per wallet transfer (spec: Limits, "Wallet transfer amount"). */
export const transferAmountMaxFils = fils(1_000_000)

/** A transfer fails when the beneficiary's balance plus the amount would exceed AED 20,000 (spec: Limits). */
export const beneficiaryBalanceMaxFils = fils(2_000_000)

/** The order's `product`: the service's internal classification of the order. */
export const walletTransferProduct = "TRANSFER_TO_WALLET"
