import type { BrokenRule } from "@mizan/kernel"
import { quoteProblems } from "../payout/quote.ts"
import type { State } from "./state.ts"

export const rules = {
  amountPositive: "the amount is above zero",
  fundoutCurrency: "fundoutAmount is in fundoutCurrencyCode",
  quoteHolds: "the payout agrees with its rate, rounding rule and fee plan",
} as const

/** The order's payout always agrees with its rate, rounding rule and fee plan. */
export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  if (state.status === "ABSENT") return []
  const broken: Array<BrokenRule> = []
  if (state.amount <= 0) broken.push({ rule: rules.amountPositive, detail: `amount ${state.amount} fils` })
  if (state.fundoutAmount.currency !== state.fundoutCurrencyCode)
    broken.push({
      rule: rules.fundoutCurrency,
      detail: `fundoutAmount in ${state.fundoutAmount.currency}, fundoutCurrencyCode ${state.fundoutCurrencyCode}`,
    })
  const quote = {
    orderAmount: state.amount,
    fundoutAmount: state.fundoutAmount,
    feeAmount: state.payerFeeAmount,
    rate: state.rate,
  }
  for (const problem of quoteProblems(quote, state.feePlan)) broken.push({ rule: rules.quoteHolds, detail: problem })
  return broken
}
