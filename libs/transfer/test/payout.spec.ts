import { describe, expect, it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { type FeePlan, type Fils, feeFor, fils } from "@mizan/kernel"
import { Effect, Layer, Result, Schema } from "effect"
import fc from "fast-check"
import {
  CurrencyAmount,
  calculateFundout,
  convertAtRate,
  findAbility,
  formatCurrencyAmount,
  layerPayoutAbilities,
  layerRateTable,
  minorUnitsByCurrency,
  minorUnitsOf,
  type PayoutAbility,
  quoteFundout,
  quoteProblems,
  Rate,
  rate,
  scaledDecimalOf,
  toFundoutAbilityItem,
} from "../src/index.ts"

const noFee: FeePlan = { basisPoints: 0, fixedFils: fils(0) }
const ability = (networkCode: string, fundoutCurrencyCode: string, feePlan: FeePlan = noFee): PayoutAbility => ({
  countryCode: networkCode === "LOCAL" ? "UAE" : "US",
  fundoutCurrencyCode,
  networkCode,
  name: `${networkCode} transfer`,
  beneficiaryType: "IBAN",
  feePlan,
})

describe("currencies", () => {
  it.each([
    ["AED", 2],
    ["USD", 2],
    ["JPY", 0],
    ["KRW", 0],
    ["KWD", 3],
    ["BHD", 3],
    ["OMR", 3],
    ["CLF", 4],
  ])("counts %s in %i decimal places (ISO 4217)", (currency, places) => {
    expect(minorUnitsOf(currency)).toBe(places)
  })

  it("knows no currency outside ISO 4217", () => {
    expect(minorUnitsOf("XYZ")).toBeUndefined()
    expect(minorUnitsOf("usd")).toBeUndefined()
    expect(minorUnitsByCurrency.size).toBeGreaterThan(150)
  })

  it.each([
    ["KWD", 123456n, "123.456"],
    ["KWD", 5n, "0.005"],
    ["JPY", 1500n, "1500"],
    ["USD", 1050n, "10.50"],
  ])("writes %s %s minor units as %s", (currency, minorUnits, text) => {
    expect(formatCurrencyAmount({ currency, minorUnits })).toBe(text)
  })

  it("writes an amount into an event as decimal text and reads it back", () => {
    const encoded = Schema.encodeSync(CurrencyAmount)({ currency: "IDR", minorUnits: 2n ** 60n })
    expect(encoded).toEqual({ currency: "IDR", minorUnits: "1152921504606846976" })
    expect(Schema.decodeUnknownSync(CurrencyAmount)(encoded).minorUnits).toBe(2n ** 60n)
  })
})

describe("rates", () => {
  it.each(["1", "3.6725", "0.272300", "4450.5", "0.000000000001"])("accepts %s as a rate", (text) => {
    expect(Result.isSuccess(Schema.decodeUnknownResult(Rate)(text))).toBe(true)
  })

  it.each(["0", "0.000", "-1", "1e3", "1.", ".5", "01", "1234567890", "1.0000000000001", " 1", "NaN"])(
    "refuses %j as a rate",
    (text) => {
      expect(Result.isFailure(Schema.decodeUnknownResult(Rate)(text))).toBe(true)
    },
  )

  it("reads a rate as a scaled integer, never a float", () => {
    expect(scaledDecimalOf(rate("3.6725"))).toEqual({ coefficient: 36725n, scale: 4 })
    expect(scaledDecimalOf(rate("12"))).toEqual({ coefficient: 12n, scale: 0 })
  })
})

describe("conversion at a rate", () => {
  it.each([
    // 100.00 AED x 0.2723 = 27.23 USD exactly.
    [10_000, "0.2723", "USD", 2723n],
    // 0.01 AED x 0.5 = 0.005 USD: a half cent rounds up to 0.01.
    [1, "0.5", "USD", 1n],
    // 0.01 AED x 0.4999 = 0.004999 USD rounds down to 0.00.
    [1, "0.4999", "USD", 0n],
    // 10.00 AED x 40.15 = 401.5 JPY: no minor unit, the half yen rounds up.
    [1_000, "40.15", "JPY", 402n],
    // 1.00 AED x 0.0837 = 0.0837 KWD = 83.7 fils of KWD, rounds to 0.084.
    [100, "0.0837", "KWD", 84n],
    // The largest AED amount at a large rate passes 2^53 and stays exact:
    // 999,999,999,999.99 x 25000.123456 = 25,000,123,455,999,749.99876544 VND, rounds up.
    [99_999_999_999_999, "25000.123456", "VND", 25_000_123_455_999_750n],
  ])("converts %i fils at %s into %s as %s minor units, rounding half up", (amountFils, text, currency, minor) => {
    expect(convertAtRate(amountFils, rate(text), currency)).toEqual({ currency, minorUnits: minor })
  })

  const rateArbitrary = fc
    .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 6 }))
    .map(([whole, fraction, places]) =>
      places === 0 ? `${whole}` : `${whole}.${String(fraction).padStart(6, "0").slice(0, places)}`,
    )
    .filter((text) => /[1-9]/.test(text))
    .map(rate)

  test.prop(
    [
      fc.integer({ min: 1, max: 99_999_999_999_999 }),
      rateArbitrary,
      fc.constantFrom("USD", "JPY", "KWD", "EUR", "CLF"),
    ],
    { numRuns: 200 },
  )("lands within half a minor unit of the exact product, ties up", (amountFils, rateUsed, currency) => {
    const converted = convertAtRate(amountFils, rateUsed, currency)
    const { coefficient, scale } = scaledDecimalOf(rateUsed)
    const places = BigInt(minorUnitsOf(currency) ?? 0)
    // exact = amountFils x coefficient x 10^places / (100 x 10^scale); compare in integers.
    const exactNumerator = BigInt(amountFils) * coefficient * 10n ** places
    const denominator = 100n * 10n ** BigInt(scale)
    const difference = (converted?.minorUnits ?? -1n) * denominator - exactNumerator
    expect(-denominator < 2n * difference && 2n * difference <= denominator).toBe(true)
  })
})

describe("payout abilities", () => {
  const abilities = [ability("LOCAL", "AED"), ability("SWIFT", "USD")]

  it("finds an enabled network and currency", () => {
    expect(Result.getOrThrow(findAbility(abilities, { networkCode: "SWIFT", fundoutCurrencyCode: "USD" })).name).toBe(
      "SWIFT transfer",
    )
  })

  it.each([
    ["a network that is not enabled", "FEDWIRE", "USD"],
    ["a currency not enabled on the network", "SWIFT", "EUR"],
    ["a currency enabled on another network only", "LOCAL", "USD"],
  ])("refuses %s with 62076 FUND_OUT_ABILITY_SUPPORTED", (_, network, currency) => {
    const found = findAbility(abilities, { networkCode: network, fundoutCurrencyCode: currency })
    expect(Result.isFailure(found) && found.failure.code).toBe("FUND_OUT_ABILITY_SUPPORTED")
  })

  it("lists an ability on the wire without its fee plan", () => {
    expect(toFundoutAbilityItem(ability("LOCAL", "AED"))).toEqual({
      countryCode: "UAE",
      fundoutCurrencyCode: "AED",
      networkCode: "LOCAL",
      name: "LOCAL transfer",
      beneficiaryType: "IBAN",
    })
  })
})

describe("rate calculator", () => {
  const swiftFee: FeePlan = { basisPoints: 50, fixedFils: fils(2_500) }
  const layer = Layer.mergeAll(
    layerPayoutAbilities({ m1: [ability("LOCAL", "AED"), ability("SWIFT", "USD", swiftFee), ability("SWIFT", "JPY")] }),
    layerRateTable({ USD: rate("0.2723") }),
  )
  const calculation = (merchantId: string, networkCode: string, fundoutCurrencyCode: string, orderAmount: Fils) =>
    Effect.provide(calculateFundout(merchantId, { networkCode, fundoutCurrencyCode, orderAmount }), layer)
  const refusal = (...args: Parameters<typeof calculation>) => Effect.flip(calculation(...args))

  it.effect("quotes fundoutAmount at the rate, the network's fee on top, and the quoted rate", () =>
    Effect.gen(function* () {
      // 1,000.00 AED x 0.2723 = 272.30 USD; fee 0.5% of 1,000.00 + 25.00 = 30.00 AED.
      expect(yield* calculation("m1", "SWIFT", "USD", fils(100_000))).toEqual({
        orderAmount: 100_000,
        fundoutAmount: { currency: "USD", minorUnits: 27_230n },
        feeAmount: 3_000,
        networkCode: "SWIFT",
        rate: "0.2723",
      })
    }),
  )

  it.effect("pays out AED in AED at a rate of 1", () =>
    Effect.gen(function* () {
      const quote = yield* calculation("m1", "LOCAL", "AED", fils(12_345))
      expect(quote).toMatchObject({ fundoutAmount: { currency: "AED", minorUnits: 12_345n }, rate: "1" })
    }),
  )

  it.effect.each([
    ["a network the merchant has not enabled", "m1", "FEDWIRE", "USD"],
    ["a merchant with no abilities", "m2", "SWIFT", "USD"],
    ["an enabled currency the rate source cannot price", "m1", "SWIFT", "JPY"],
  ] as const)("refuses %s with 62076", ([_, merchantId, network, currency]) =>
    Effect.gen(function* () {
      expect(yield* refusal(merchantId, network, currency, fils(100))).toMatchObject({
        code: "FUND_OUT_ABILITY_SUPPORTED",
      })
    }),
  )

  const feePlan = fc.record({ basisPoints: fc.integer({ min: 0, max: 10_000 }), fixedFils: fc.nat({ max: 10_000 }) })
  test.prop([fc.integer({ min: 1, max: 99_999_999_999_999 }), feePlan, fc.constantFrom("USD", "JPY", "KWD")], {
    numRuns: 200,
  })("always agrees with its rate, rounding rule and fee plan", (amount, plan, currency) => {
    const planned = { basisPoints: plan.basisPoints, fixedFils: fils(plan.fixedFils) }
    const quote = quoteFundout(ability("SWIFT", currency, planned), fils(amount), rate("3.6725"))
    expect(quoteProblems(quote, planned)).toEqual([])
    expect(quote.feeAmount).toBe(feeFor(planned, fils(amount)))
  })

  it("reports a quote whose amount or fee does not follow from its rate and plan", () => {
    const quote = quoteFundout(ability("SWIFT", "USD", swiftFee), fils(100_000), rate("0.2723"))
    expect(quoteProblems({ ...quote, fundoutAmount: { currency: "USD", minorUnits: 27_231n } }, swiftFee)).toHaveLength(
      1,
    )
    expect(quoteProblems({ ...quote, feeAmount: fils(0) }, swiftFee)).toHaveLength(1)
  })
})
