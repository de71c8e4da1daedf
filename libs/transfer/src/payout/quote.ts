/**
 * The payout calculation (spec: Payout calculation, `fundoutInfo`):
 *
 * - fundoutAmount = orderAmount x rate, in the payout currency's minor unit,
 *   rounded half up (`convertAtRate`);
 * - feeAmount = the ability's fee plan applied to orderAmount (basis points
 *   rounded half up to the fils, plus the fixed part), charged on top: it is
 *   not included in orderAmount;
 * - rate = the rate the source quoted, exactly as it was quoted; an AED
 *   payout is always at 1, whatever rate came with it.
 *
 * Why the quoted rate and not fundoutAmount / orderAmount rounded to two
 * decimals: the spec documents the ratio "rounded to two decimals" but its
 * sample carries more decimals. Two decimals would misstate a rate like
 * 0.2723 (AED to USD) by 0.8%, and the ratio of two rounded amounts is not
 * the price the merchant was given. The quoted rate is the one number from
 * which fundoutAmount is reproduced exactly; the ratio differs from it only
 * by the rounding of fundoutAmount to its minor unit (less than half a minor
 * unit over orderAmount).
 */
import { type FeePlan, type Fils, Fils as FilsSchema, feeFor } from "@mizan/kernel"
import { Schema } from "effect"
import { NetworkCode, type PayoutAbility } from "./abilities.ts"
import { CurrencyAmount } from "./currency.ts"
import { convertAtRate, Rate, unitRate } from "./rate.ts"

export const FundoutQuote = Schema.Struct({
  orderAmount: FilsSchema,
  fundoutAmount: CurrencyAmount,
  feeAmount: FilsSchema,
  networkCode: NetworkCode,
  rate: Rate,
})
export type FundoutQuote = typeof FundoutQuote.Type

export const quoteFundout = (ability: PayoutAbility, orderAmount: Fils, quotedRate: Rate): FundoutQuote => {
  const rateUsed = ability.fundoutCurrencyCode === "AED" ? unitRate : quotedRate
  const fundoutAmount = convertAtRate(orderAmount, rateUsed, ability.fundoutCurrencyCode)
  // The ability's currency passed the ISO 4217 schema, so it always has a minor unit.
  if (fundoutAmount === undefined) throw new Error(`no minor unit for ${ability.fundoutCurrencyCode}`)
  return {
    orderAmount,
    fundoutAmount,
    feeAmount: feeFor(ability.feePlan, orderAmount),
    networkCode: ability.networkCode,
    rate: rateUsed,
  }
}

/** The rules a recorded quote breaks: its amounts must follow from its rate and fee plan. */
export const quoteProblems = (
  quote: Pick<FundoutQuote, "orderAmount" | "fundoutAmount" | "feeAmount" | "rate">,
  feePlan: FeePlan,
): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const expected = convertAtRate(quote.orderAmount, quote.rate, quote.fundoutAmount.currency)
  // Compared by minor units (`expected` is in the quote's own currency): Equal.equals hashes both
  // structures, which made this the audit's costliest rule.
  if (expected === undefined || expected.minorUnits !== quote.fundoutAmount.minorUnits)
    problems.push("fundoutAmount is not orderAmount x rate rounded half up to the currency's minor unit")
  if (quote.feeAmount !== feeFor(feePlan, quote.orderAmount))
    problems.push("feeAmount is not the fee plan applied to orderAmount")
  return problems
}
