import type { BrokenRule } from "@mizan/kernel"
import { walletFailDescription } from "./failures.ts"
import { beneficiaryBalanceMaxFils, transferAmountMaxFils } from "./limits.ts"
import type { State } from "./state.ts"

/**
 * The rules a wallet transfer must always keep (spec: Limits): no
 * transfer that is not FAILURE carries more than AED 10,000 or takes its
 * beneficiary above AED 20,000; a FAILURE says why.
 */
export const rules = {
  amountPositive: "the amount is above zero",
  feeWithinAmount: "the payer's fee is not above the amount",
  failureDescribed: "a FAILURE's failDes describes its failCode",
  transferLimit: "a transfer that did not fail carries at most AED 10,000",
  beneficiaryFound: "a transfer that did not fail credited a member it found",
  balanceLimit: "a transfer that did not fail leaves its beneficiary at most AED 20,000",
} as const

export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  if (state.status === "ABSENT") return []
  const broken: Array<BrokenRule> = []
  if (state.amount <= 0) broken.push({ rule: rules.amountPositive, detail: `amount ${state.amount} fils` })
  if (state.payerFeeAmount > state.amount)
    broken.push({
      rule: rules.feeWithinAmount,
      detail: `fee ${state.payerFeeAmount} fils, amount ${state.amount} fils`,
    })
  if (state.status === "FAILURE") {
    if (state.failDes !== walletFailDescription[state.failCode])
      broken.push({ rule: rules.failureDescribed, detail: `${state.failCode}: ${state.failDes}` })
    return broken
  }
  if (state.amount > transferAmountMaxFils)
    broken.push({ rule: rules.transferLimit, detail: `${state.status} with ${state.amount} fils` })
  if (state.beneficiaryBalanceFils === undefined)
    broken.push({ rule: rules.beneficiaryFound, detail: `${state.status} with no beneficiary balance` })
  else if (state.beneficiaryBalanceFils + state.amount > beneficiaryBalanceMaxFils)
    broken.push({
      rule: rules.balanceLimit,
      detail: `${state.status}: balance ${state.beneficiaryBalanceFils} fils + ${state.amount} fils`,
    })
  return broken
}
