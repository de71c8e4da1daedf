import { quoteProblems } from "../payout/quote.ts"
import type { State } from "./state.ts"

/** The order's payout always agrees with its rate, rounding rule and fee plan. */
export const invariants = (state: State): ReadonlyArray<string> => {
  if (state.status === "ABSENT") return []
  const problems: Array<string> = []
  if (state.amount <= 0) problems.push("amount is not above zero")
  if (state.fundoutAmount.currency !== state.fundoutCurrencyCode)
    problems.push("fundoutAmount is not in fundoutCurrencyCode")
  problems.push(
    ...quoteProblems(
      {
        orderAmount: state.amount,
        fundoutAmount: state.fundoutAmount,
        feeAmount: state.payerFeeAmount,
        rate: state.rate,
      },
      state.feePlan,
    ),
  )
  return problems
}
