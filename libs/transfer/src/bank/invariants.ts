import { amountAboveZero, amountAboveZeroRule, type BrokenRule } from "@mizan/kernel"
import { quoteProblems } from "../payout/quote.ts"
import type { State } from "./state.ts"

export const rules = {
  amountPositive: amountAboveZeroRule,
  fundoutCurrency: "fundoutAmount is in fundoutCurrencyCode",
  quoteHolds: "the payout agrees with its rate, rounding rule and fee plan",
  arrivalExpectedAfterPlacement: "the expected arrival is not before the placement",
} as const

/** The order's payout always agrees with its rate, rounding rule and fee plan, and its money is never expected before it was sent. */
export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  if (state.status === "ABSENT") return []
  const broken: Array<BrokenRule> = [...amountAboveZero(state.amountFils)]
  if (state.fundoutAmount.currency !== state.fundoutCurrencyCode)
    broken.push({
      rule: rules.fundoutCurrency,
      detail: `fundoutAmount in ${state.fundoutAmount.currency}, fundoutCurrencyCode ${state.fundoutCurrencyCode}`,
    })
  const quote = {
    orderAmount: state.amountFils,
    fundoutAmount: state.fundoutAmount,
    feeAmount: state.payerFeeFils,
    rate: state.rate,
  }
  for (const problem of quoteProblems(quote, state.feePlan)) broken.push({ rule: rules.quoteHolds, detail: problem })
  if (state.expectedArrivalTime !== undefined && state.expectedArrivalTime < state.createdTime)
    broken.push({
      rule: rules.arrivalExpectedAfterPlacement,
      detail: `expected at ${state.expectedArrivalTime}, placed at ${state.createdTime}`,
    })
  return broken
}
