import { walletFailDescription } from "./failures.ts"
import { beneficiaryBalanceMaxFils, transferAmountMaxFils } from "./limits.ts"
import type { State } from "./state.ts"

/**
 * The rules a wallet transfer must always keep (spec: Limits): no
 * transfer that is not FAILURE carries more than AED 10,000 or takes its
 * beneficiary above AED 20,000; a FAILURE says why.
 */
export const invariants = (state: State): ReadonlyArray<string> => {
  if (state.status === "ABSENT") return []
  const problems: Array<string> = []
  if (state.amount <= 0) problems.push("amount is not above zero")
  if (state.payerFeeAmount > state.amount) problems.push("payerFeeAmount is above the amount")
  if (state.status === "FAILURE") {
    if (state.failDes !== walletFailDescription[state.failCode]) problems.push("failDes does not describe failCode")
    return problems
  }
  if (state.amount > transferAmountMaxFils) problems.push(`a ${state.status} transfer is above AED 10,000`)
  if (state.beneficiaryBalanceFils === undefined)
    problems.push(`a ${state.status} transfer has no beneficiary balance, so no member was found`)
  else if (state.beneficiaryBalanceFils + state.amount > beneficiaryBalanceMaxFils)
    problems.push(`a ${state.status} transfer takes the beneficiary above AED 20,000`)
  return problems
}
