/**
 * Money is an integer count of fils (0.01 AED). Floats never take part in
 * arithmetic: the wire decimal is parsed from its text, exactly, and every
 * split of an amount allocates its remainder explicitly (see `allocation.ts`).
 */
import { Schema, SchemaTransformation } from "effect"

/** The spec's Money: at most 12 digits before the decimal point and 2 after. */
export const maxIntegerDigits = 12
export const maxFractionDigits = 2
export const filsPerDirham = 100
/** 999,999,999,999.99 AED: the largest amount the wire can carry, in fils. */
export const maxAmountFils = 10 ** (maxIntegerDigits + maxFractionDigits) - 1

/** A non-negative whole number of fils that the wire can carry. */
export const Fils = Schema.Int.check(
  Schema.isBetween(
    { minimum: 0, maximum: maxAmountFils },
    { message: "must be a whole number of fils from 0 to 99999999999999" },
  ),
).pipe(Schema.brand("Fils"))
export type Fils = typeof Fils.Type

/** An amount above zero. */
export const PositiveFils = Fils.check(Schema.isGreaterThan(0, { message: "must be greater than 0" }))

/** The only currency of orders and refunds. */
export const Currency = Schema.Literal("AED").annotate({ message: "must be AED" })
export type Currency = typeof Currency.Type

const decimalText = /^(0|[1-9][0-9]{0,11})(?:\.([0-9]{1,2}))?$/

/**
 * Parses a decimal amount written as text into fils, exactly, or answers
 * undefined. Accepts "12", "0.10", "12.5"; refuses "1.005", "1e3", "-1",
 * " 1", "01", "1." and anything longer than 12 integer digits.
 */
export const parseFils = (text: string): Fils | undefined => {
  const match = decimalText.exec(text)
  if (match === null) return undefined
  const whole = Number(match[1])
  const fraction = Number((match[2] ?? "").padEnd(maxFractionDigits, "0"))
  return (whole * filsPerDirham + fraction) as Fils
}

/** The wire decimal of an amount: 1050 fils is 10.5, 10 fils is 0.1. */
export const filsToDecimalNumber = (fils: Fils): number => fils / filsPerDirham

/** The decimal text of an amount with its two places kept: 1050 fils is "10.50". */
export const formatFils = (fils: Fils): string => {
  const whole = Math.trunc(fils / filsPerDirham)
  const fraction = fils % filsPerDirham
  return `${whole}.${String(fraction).padStart(maxFractionDigits, "0")}`
}

/**
 * An amount as a merchant reads it in a message or on a page: "AED 1,050.00".
 * Takes a bigint too, for sums that may pass what a Fils can hold.
 */
export const formatAed = (fils: Fils | bigint): string => {
  const amount = BigInt(fils)
  const sign = amount < 0n ? "-" : ""
  const magnitude = amount < 0n ? -amount : amount
  const whole = (magnitude / BigInt(filsPerDirham)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  const fraction = (magnitude % BigInt(filsPerDirham)).toString().padStart(maxFractionDigits, "0")
  return `AED ${sign}${whole}.${fraction}`
}

const amountMessage =
  "must be a decimal amount with at most 12 digits before the point and 2 after, not negative, with no exponent or spaces"

const amountText = (input: number | string): string => (typeof input === "number" ? String(input) : input)

/**
 * The wire's `amount`: a JSON number (or numeric string) decoded to fils,
 * encoded back to a JSON number. `0.10` is 10 fils; `1.005`, `1e3`, `-1`,
 * `NaN` and `" 1"` are refused.
 */
export const AmountFromWire = Schema.Union([Schema.Number, Schema.String])
  .check(Schema.makeFilter((input) => parseFils(amountText(input)) !== undefined, { message: amountMessage }))
  .pipe(
    Schema.decodeTo(
      Fils,
      SchemaTransformation.transform({
        decode: (input) => parseFils(amountText(input)) as number,
        encode: (fils) => filsToDecimalNumber(fils as Fils),
      }),
    ),
  )

/** The wire's Money object `{ amount, currency }`, decoded to fils (currency is always AED). */
export const MoneyFromWire = Schema.Struct({ amount: AmountFromWire, currency: Currency }).pipe(
  Schema.decodeTo(
    Fils,
    SchemaTransformation.transform({
      decode: (money): number => money.amount,
      encode: (amount: number) => ({ amount: amount as Fils, currency: "AED" as const }),
    }),
  ),
)

/** The wire's Money object for an amount that must be above zero. */
export const PositiveMoneyFromWire = MoneyFromWire.check(Schema.isGreaterThan(0, { message: "must be greater than 0" }))

/** Money as the wire writes it. */
export const toWireMoney = (fils: Fils): { readonly amount: number; readonly currency: "AED" } => ({
  amount: filsToDecimalNumber(fils),
  currency: "AED",
})

// Arithmetic. Results are checked: a payment core never wraps or goes negative silently.

export const fils = (n: number): Fils => {
  if (!Number.isSafeInteger(n) || n < 0 || n > maxAmountFils) throw new RangeError(`not an amount in fils: ${n}`)
  return n as Fils
}

export const addFils = (a: Fils, b: Fils): Fils => fils(a + b)

/** a - b; throws when b exceeds a, since callers check limits before subtracting. */
export const subtractFils = (a: Fils, b: Fils): Fils => fils(a - b)

export const sumFils = (amounts: Iterable<Fils>): Fils => {
  let total = 0
  for (const amount of amounts) total += amount
  return fils(total)
}

export const minFils = (a: Fils, b: Fils): Fils => (a < b ? a : b)

/** Totals that can grow without bound (audits over whole histories) are kept as bigint. */
export const sumFilsBig = (amounts: Iterable<Fils>): bigint => {
  let total = 0n
  for (const amount of amounts) total += BigInt(amount)
  return total
}

export const zeroFils = 0 as Fils
