/**
 * The payout rules' refusals and schemas, each with its exact wording, and
 * the ports' errors by tag: what the gateway shows a merchant or catches.
 */

import { describe, expect, it, layer } from "@effect/vitest"
import { fils, issueMessage } from "@mizan/kernel"
import { Effect, Layer, Result, Schema } from "effect"
import {
  BankTransfer,
  CurrencyAmount,
  calculateFundout,
  convertAtRate,
  FundoutQuote,
  fundoutTermsOf,
  layerPayoutAbilities,
  layerRateTable,
  PayoutAbilities,
  PayoutAbility,
  quoteFundout,
  quoteProblems,
  Rate,
  RateSource,
  RateUnavailable,
  rate,
  VamDeposit,
  WalletTransfer,
} from "../src/index.ts"
import { at } from "./support.ts"

const verdict = (schema: Schema.Top, input: unknown): string => {
  const decoded = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)(input)
  return Result.isFailure(decoded) ? issueMessage(decoded.failure.issue) : "accepted"
}

const swift: PayoutAbility = {
  countryCode: "US",
  fundoutCurrencyCode: "USD",
  networkCode: "SWIFT",
  name: "SWIFT transfer",
  beneficiaryType: "IBAN",
  feePlan: { basisPoints: 0, fixedFils: fils(0) },
}
const layerPayout = Layer.mergeAll(
  layerPayoutAbilities({ m1: [swift, { ...swift, fundoutCurrencyCode: "JPY" }] }),
  layerRateTable({ USD: rate("0.2723") }),
)

layer(layerPayout)("payout refusals say which network and currency", (it) => {
  it.effect("refuses a network and currency the merchant has not enabled", () =>
    Effect.gen(function* () {
      const refusal = yield* Effect.flip(
        calculateFundout("m1", { networkCode: "LOCAL", fundoutCurrencyCode: "USD", orderAmount: fils(1) }),
      )
      expect(refusal).toMatchObject({
        code: "FUND_OUT_ABILITY_SUPPORTED",
        field: "networkCode",
        detail: "networkCode LOCAL with fundoutCurrencyCode USD is not enabled for this merchant",
      })
    }),
  )

  it.effect("refuses an enabled currency the rate source cannot price", () =>
    Effect.gen(function* () {
      expect(
        yield* Effect.flip(fundoutTermsOf("m1", { networkCode: "SWIFT", fundoutCurrencyCode: "JPY" })),
      ).toMatchObject({
        code: "FUND_OUT_ABILITY_SUPPORTED",
        field: "fundoutCurrencyCode",
        detail: "fundoutCurrencyCode JPY has no rate at present",
      })
    }),
  )

  it.effect.each([
    [
      "a network",
      { networkCode: "LOCAL", fundoutCurrencyCode: "USD", defaulted: ["networkCode"] },
      "networkCode was not sent and defaults to LOCAL, which with fundoutCurrencyCode USD is not enabled for this merchant",
    ],
    [
      "a currency",
      { networkCode: "SWIFT", fundoutCurrencyCode: "AED", defaulted: ["fundoutCurrencyCode"] },
      "fundoutCurrencyCode was not sent and defaults to AED, which with networkCode SWIFT is not enabled for this merchant",
    ],
    [
      "both",
      { networkCode: "LOCAL", fundoutCurrencyCode: "AED", defaulted: ["networkCode", "fundoutCurrencyCode"] },
      "networkCode and fundoutCurrencyCode were not sent and default to LOCAL and AED, which are not enabled for this merchant",
    ],
  ] as const)("says of %s left to its default that it was not sent, and what it defaults to", ([, choice, detail]) =>
    Effect.gen(function* () {
      // The field the sentence starts with, as data: the one to send.
      expect(yield* Effect.flip(fundoutTermsOf("m1", choice))).toMatchObject({
        code: "FUND_OUT_ABILITY_SUPPORTED",
        field: choice.defaulted[0],
        detail,
      })
    }),
  )

  it.effect("says of a defaulted currency the rate source cannot price that it was not sent", () =>
    Effect.gen(function* () {
      const choice = { networkCode: "SWIFT", fundoutCurrencyCode: "JPY", defaulted: ["fundoutCurrencyCode"] } as const
      expect(yield* Effect.flip(fundoutTermsOf("m1", choice))).toMatchObject({
        code: "FUND_OUT_ABILITY_SUPPORTED",
        detail: "fundoutCurrencyCode was not sent and defaults to JPY, which has no rate at present",
      })
    }),
  )

  it.effect("hands the bank transfer the merchant's abilities and the rate", () =>
    Effect.gen(function* () {
      expect(yield* fundoutTermsOf("m1", { networkCode: "SWIFT", fundoutCurrencyCode: "USD" })).toEqual({
        abilities: [swift, { ...swift, fundoutCurrencyCode: "JPY" }],
        rate: "0.2723",
      })
    }),
  )

  it.effect("gives a merchant not configured no abilities", () =>
    Effect.gen(function* () {
      expect(yield* (yield* PayoutAbilities).abilitiesOf("m9")).toEqual([])
    }),
  )

  it.effect("says which currency the rate table has no rate for", () =>
    Effect.gen(function* () {
      const missing = yield* Effect.flip((yield* RateSource).rateFor("JPY"))
      expect(missing).toEqual(new RateUnavailable({ currency: "JPY" }))
      expect(missing).toMatchObject({ _tag: "RateUnavailable", message: "no AED rate for JPY" })
    }),
  )
})

describe("the ports' errors", () => {
  it("names the bank port's error by tag", () =>
    expect(new BankTransfer.BankUnavailable({ detail: "timeout" })._tag).toBe("BankUnavailable"))
})

describe("payout schemas and what they refuse", () => {
  it.each<[string, Schema.Top, unknown, string]>([
    ["an ability", PayoutAbility, swift, "accepted"],
    ["an ability without a network", PayoutAbility, { ...swift, networkCode: undefined }, "networkCode"],
    ["an amount in a currency", CurrencyAmount, { currency: "USD", minorUnits: "27230" }, "accepted"],
    [
      "an amount in no ISO 4217 currency",
      CurrencyAmount,
      { currency: "XYZ", minorUnits: "1" },
      "currency must be an ISO 4217 currency code",
    ],
    ["a negative amount", CurrencyAmount, { currency: "USD", minorUnits: "-1" }, "minorUnits must not be negative"],
    ["an amount without its currency", CurrencyAmount, { minorUnits: "1" }, "currency"],
    [
      "a rate of zero",
      Rate,
      "0.00",
      "must be a positive decimal rate with at most 9 digits before the point and 12 after",
    ],
    [
      "a quote",
      FundoutQuote,
      {
        orderAmount: 1,
        fundoutAmount: { currency: "USD", minorUnits: "0" },
        feeAmount: 0,
        networkCode: "SWIFT",
        rate: "1",
      },
      "accepted",
    ],
    [
      "a quote without its rate",
      FundoutQuote,
      { orderAmount: 1, fundoutAmount: { currency: "USD", minorUnits: "0" }, feeAmount: 0, networkCode: "SWIFT" },
      "rate",
    ],
  ])("%s: %s", (_, schema, input, expected) => expect(verdict(schema, input)).toContain(expected))
})

describe("quotes in a currency with no minor unit, as only a hand-built ability or a damaged state has", () => {
  it("converts nothing", () => expect(convertAtRate(100, rate("1"), "XYZ")).toBeUndefined())

  it("refuses to quote, naming the currency", () =>
    expect(() => quoteFundout({ ...swift, fundoutCurrencyCode: "XYZ" }, fils(100), rate("1"))).toThrow(
      "no minor unit for XYZ",
    ))

  it("reports the recorded amount as not following from the rate", () =>
    expect(
      quoteProblems(
        {
          orderAmount: fils(100),
          fundoutAmount: { currency: "XYZ", minorUnits: 27n },
          feeAmount: fils(0),
          rate: rate("0.27"),
        },
        { basisPoints: 0, fixedFils: fils(0) },
      ),
    ).toEqual(["fundoutAmount is not orderAmount x rate rounded half up to the currency's minor unit"]))
})

describe("the status changes the notifier announces", () => {
  it.each([
    ["wallet transfer", WalletTransfer.announcedEvents, ["WalletTransferSucceeded", "WalletTransferFailed"]],
    ["virtual-account deposit", VamDeposit.announcedEvents, ["VamDepositReceived", "VamDepositSettled"]],
  ] as const)("of a %s", (_, announced, events) => expect(announced).toEqual(events))

  it("settles a deposit only to a final status", () => {
    for (const status of ["SUCCESS", "FAILED"])
      expect(verdict(VamDeposit.Event, { _tag: "VamDepositSettled", status, transactionTime: 1, at: 1 })).toBe(
        "accepted",
      )
    expect(
      verdict(VamDeposit.Event, { _tag: "VamDepositSettled", status: "PENDING", transactionTime: 1, at: 1 }),
    ).toContain("status")
  })

  it("records a deposit without a notifyUrl without the key", () => {
    const [received] = Result.getOrThrow(
      VamDeposit.decide(
        {
          _tag: "RecordVamDeposit",
          merchantId: "M1",
          now: at("2026-03-01T09:00:00Z"),
          deposit: {
            orderNo: "V1",
            transactionTime: at("2026-03-01T09:00:00Z"),
            amountFils: fils(1),
            status: "PENDING",
          },
        },
        VamDeposit.initialState,
      ),
    )
    expect(received).not.toHaveProperty("notifyUrl")
  })
})
