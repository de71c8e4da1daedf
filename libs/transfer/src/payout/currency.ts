/**
 * Amounts in the currency a payout is received in (fundoutCurrencyCode).
 * They are not AED fils: each currency counts in its own minor unit (ISO
 * 4217: JPY has none, KWD has thousandths), so an amount is a whole number
 * of that unit, kept as a bigint because a large AED amount times a large
 * rate (IDR, VND) passes 2^53.
 */
import { Schema } from "effect"

const codesWith = (minorUnits: number, codes: string): ReadonlyArray<readonly [string, number]> =>
  codes.split(" ").map((code) => [code, minorUnits] as const)

/**
 * ISO 4217 active currency codes and their minor units (the standard's
 * list one, as published by its maintenance agency). Precious metals and
 * testing codes (XAU, XTS, ...) have no minor unit and are left out: nothing
 * is paid out in them.
 */
export const minorUnitsByCurrency: ReadonlyMap<string, number> = new Map([
  ...codesWith(0, "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"),
  ...codesWith(3, "BHD IQD JOD KWD LYD OMR TND"),
  ...codesWith(4, "CLF UYW"),
  ...codesWith(
    2,
    "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE " +
      "CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD " +
      "HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP " +
      "MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD " +
      "SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS " +
      "VED VES WST XCD XCG YER ZAR ZMW ZWG",
  ),
])

export const minorUnitsOf = (currency: string): number | undefined => minorUnitsByCurrency.get(currency)

/** An ISO 4217 code this service can pay out in. */
export const CurrencyCode = Schema.String.check(
  Schema.makeFilter((code: string) => minorUnitsByCurrency.has(code), {
    message: "must be an ISO 4217 currency code",
  }),
)

/** A non-negative whole number of a currency's minor unit, written in events as decimal text. */
export const MinorUnits = Schema.BigIntFromString.check(
  Schema.isGreaterThanOrEqualToBigInt(0n, { message: "must not be negative" }),
)

/** An amount in the payout currency: 123456 minor units of KWD is 123.456 KWD. */
export const CurrencyAmount = Schema.Struct({ currency: CurrencyCode, minorUnits: MinorUnits })
export type CurrencyAmount = typeof CurrencyAmount.Type

/** The decimal text of an amount with all its places: 123.456 KWD, 1500 JPY, 10.50 USD. */
export const formatCurrencyAmount = (amount: CurrencyAmount): string => {
  const places = minorUnitsOf(amount.currency) ?? 2
  if (places === 0) return amount.minorUnits.toString()
  const digits = amount.minorUnits.toString().padStart(places + 1, "0")
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`
}
