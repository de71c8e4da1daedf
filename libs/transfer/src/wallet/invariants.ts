import { amountAboveZero, amountAboveZeroRule, type BrokenRule } from "@mizan/kernel"
import { walletFailDescription } from "./failures.ts"
import { beneficiaryBalanceMaxFils, transferAmountMaxFils } from "./limits.ts"
import type { State } from "./state.ts"

/**
 * The rules a wallet transfer must always keep (spec: Limits): no
 * transfer that is not FAILURE carries more than AED 10,000 or takes its
 * beneficiary above AED 20,000; a FAILURE says why.
 */
export const rules = {
  amountPositive: amountAboveZeroRule,
  feeWithinAmount: "the payer's fee is not above the amount",
  failureDescribed: "a FAILURE's failDes describes its failCode",
  transferLimit: "a transfer that did not fail carries at most AED 10,000",
  beneficiaryFound: "a transfer that did not fail credited a member it found",
  balanceLimit: "a transfer that did not fail leaves its beneficiary at most AED 20,000",
} as const

export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  if (state.status === "ABSENT") return []
  const broken: Array<BrokenRule> = [...amountAboveZero(state.amountFils)]
  if (state.payerFeeFils > state.amountFils)
    broken.push({
      rule: rules.feeWithinAmount,
      detail: `fee ${state.payerFeeFils} fils, amount ${state.amountFils} fils`,
    })
  if (state.status === "FAILURE") {
    if (state.failDes !== walletFailDescription[state.failCode])
      broken.push({ rule: rules.failureDescribed, detail: `${state.failCode}: ${state.failDes}` })
    return broken
  }
  if (state.amountFils > transferAmountMaxFils)
    broken.push({ rule: rules.transferLimit, detail: `${state.status} with ${state.amountFils} fils` })
  if (state.beneficiaryBalanceFils === undefined)
    broken.push({ rule: rules.beneficiaryFound, detail: `${state.status} with no beneficiary balance` })
  else if (state.beneficiaryBalanceFils + state.amountFils > beneficiaryBalanceMaxFils)
    broken.push({
      rule: rules.balanceLimit,
      detail: `${state.status}: balance ${state.beneficiaryBalanceFils} fils + ${state.amountFils} fils`,
    })
  return broken
}
