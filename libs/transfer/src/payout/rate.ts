/**
 * Exchange rates as exact decimals. A rate is the number of units of the
 * payout currency one AED buys ("AED to recipient currency", spec: Payout
 * calculation). It is written as decimal text and computed on as a scaled
 * bigint; no float ever takes part.
 */
import { Schema } from "effect"
import { type CurrencyAmount, minorUnitsOf } from "./currency.ts"

/** At most 9 integer digits (IRR and VND rates are in the thousands) and 12 decimals. */
const rateText = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,12})?$/

/** A positive exchange rate as decimal text, kept as written ("3.6725", "0.2723", "1"). */
export const Rate = Schema.String.check(
  Schema.makeFilter((text: string) => rateText.test(text) && /[1-9]/.test(text), {
    message: "must be a positive decimal rate with at most 9 digits before the point and 12 after",
  }),
).pipe(Schema.brand("Rate"))
export type Rate = typeof Rate.Type

/** A rate from configuration; throws on text that is not a rate, so a bad table fails when it is built. */
export const rate = (text: string): Rate => Schema.decodeSync(Rate)(text)

/** The same rate as AED itself: paying out AED in AED. */
export const unitRate: Rate = rate("1")

/** `coefficient / 10^scale`: 3.6725 is 36725 / 10^4. */
export interface ScaledDecimal {
  readonly coefficient: bigint
  readonly scale: number
}

export const scaledDecimalOf = (text: Rate): ScaledDecimal => {
  const [whole, fraction = ""] = text.split(".")
  return { coefficient: BigInt(`${whole}${fraction}`), scale: fraction.length }
}

const filsPerDirhamBig = 100n

/** numerator / denominator rounded half up (ties away from zero); both are positive here. */
export const divideRoundingHalfUp = (numerator: bigint, denominator: bigint): bigint => {
  const quotient = numerator / denominator
  return 2n * (numerator % denominator) >= denominator ? quotient + 1n : quotient
}

/**
 * What `amountFils` AED buys at `rate`, in the minor unit of `currency`,
 * rounded half up (a half minor unit or more rounds up): the stated rounding
 * rule of the rate calculator.
 *
 *   amount AED = amountFils / 100;  payout = amount x rate x 10^minorUnits
 *
 * Answers undefined for a currency outside ISO 4217.
 */
export const convertAtRate = (amountFils: number, rateUsed: Rate, currency: string): CurrencyAmount | undefined => {
  const places = minorUnitsOf(currency)
  if (places === undefined) return undefined
  const { coefficient, scale } = scaledDecimalOf(rateUsed)
  const numerator = BigInt(amountFils) * coefficient * 10n ** BigInt(places)
  const denominator = filsPerDirhamBig * 10n ** BigInt(scale)
  return { currency, minorUnits: divideRoundingHalfUp(numerator, denominator) }
}
