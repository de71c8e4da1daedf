/**
 * The payout helpers over real HTTP (spec: 7. payout ability list, 8. rate
 * calculator, 9. IBAN holder name). M1 may pay out LOCAL/AED (no fee) and
 * SWIFT/USD (AED 25 fee, 0.2722 USD per AED); M3 only SWIFT/GBP, which has
 * no rate. The sandbox knows one IBAN holder: AE070331234567890123456,
 * Amal Saeed.
 */
import { test } from "@fast-check/vitest"
import { fils, formatFils } from "@mizan/kernel"
import { toWireForeignMoney } from "@mizan/order-views"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ok, refused } from "./calls.ts"
import { startGateway, testConfig, testMerchant } from "./harness.ts"
import { suiteGateway } from "./suiteGateway.ts"
import { startProductionGateway } from "./transferSupport.ts"

const gateway = suiteGateway(() => {
  const base = testConfig()
  return startGateway({
    config: {
      ...base,
      merchants: [
        ...base.merchants,
        testMerchant("M3", {
          payoutAbilities: [
            {
              countryCode: "GB",
              fundoutCurrencyCode: "GBP",
              networkCode: "SWIFT",
              name: "SWIFT",
              beneficiaryType: "IBAN",
            },
          ],
        }),
      ],
    },
  })
})

const registeredIban = "AE070331234567890123456"

describe("payout ability list", () => {
  it("lists the merchant's configured abilities, without their fee plans", async () => {
    expect(await ok(gateway.merchant(), "/transfer/getFundoutAbilityList")).toEqual({
      fundoutAbilityList: [
        {
          countryCode: "UAE",
          fundoutCurrencyCode: "AED",
          networkCode: "LOCAL",
          name: "UAEFTS",
          beneficiaryType: "IBAN",
        },
        { countryCode: "US", fundoutCurrencyCode: "USD", networkCode: "SWIFT", name: "SWIFT", beneficiaryType: "IBAN" },
      ],
    })
  })

  it("lists only the calling merchant's abilities", async () => {
    expect((await ok(gateway.merchant("M3"), "/transfer/getFundoutAbilityList")).fundoutAbilityList).toEqual([
      { countryCode: "GB", fundoutCurrencyCode: "GBP", networkCode: "SWIFT", name: "SWIFT", beneficiaryType: "IBAN" },
    ])
  })
})

describe("rate calculator", () => {
  const calculate = (networkCode: string, fundoutCurrencyCode: string, amount: number | string, partnerId = "M1") =>
    ok(gateway.merchant(partnerId), "/transfer/calculateFundout", {
      networkCode,
      fundoutCurrencyCode,
      orderAmount: { amount, currency: "AED" },
    } as never)

  it("converts at the configured rate, half up to the cent, with the network's fee on top", async () => {
    expect((await calculate("SWIFT", "USD", "1000.05")).fundoutInfo).toEqual({
      orderAmount: 100_005,
      // 1000.05 x 0.2722 = 272.21361 USD
      fundoutAmount: { amountMinor: 27_221, currency: "USD" },
      feeAmount: 2_500,
      networkCode: "SWIFT",
      rate: "0.2722",
    })
  })

  it("quotes any amount at the rate, half up to the cent, with the network's fee (never above the amount)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000_000_000 }), async (amountFils) => {
        const { fundoutInfo } = await calculate("SWIFT", "USD", formatFils(fils(amountFils)))
        // USD cents = fils x 0.2722, rounded half up.
        const expectedCents = (BigInt(amountFils) * 2_722n + 5_000n) / 10_000n
        expect(fundoutInfo).toEqual({
          orderAmount: amountFils,
          fundoutAmount: { amountMinor: Number(expectedCents), currency: "USD" },
          // The kernel's fee rule: the plan's fee, but never more than the amount it is charged on.
          feeAmount: Math.min(2_500, amountFils),
          networkCode: "SWIFT",
          rate: "0.2722",
        })
      }),
      { numRuns: 25 },
    )
  })

  it("pays out AED in AED at exactly 1, with the LOCAL network's fee (none)", async () => {
    expect((await calculate("LOCAL", "AED", 250)).fundoutInfo).toEqual({
      orderAmount: 25_000,
      fundoutAmount: { amountMinor: 25_000, currency: "AED" },
      feeAmount: 0,
      networkCode: "LOCAL",
      rate: "1",
    })
  })

  it.each([
    ["a network not enabled for the currency", "LOCAL", "USD", "M1"],
    ["a currency not enabled on the network", "SWIFT", "EUR", "M1"],
    ["another merchant's ability", "LOCAL", "AED", "M3"],
    ["an enabled ability whose currency has no rate", "SWIFT", "GBP", "M3"],
  ])("answers 62076 for %s", async (_case, networkCode, fundoutCurrencyCode, partnerId) => {
    expect(
      await refused(gateway.merchant(partnerId), "/transfer/calculateFundout", {
        networkCode,
        fundoutCurrencyCode,
        orderAmount: { amount: 10, currency: "AED" },
      } as never),
    ).toMatchObject({ code: "62076" })
  })

  it.each([
    [
      "a missing networkCode",
      { fundoutCurrencyCode: "USD", orderAmount: { amount: 1, currency: "AED" } },
      "bizContent.networkCode",
    ],
    [
      "a negative amount",
      { networkCode: "SWIFT", fundoutCurrencyCode: "USD", orderAmount: { amount: -1, currency: "AED" } },
      "bizContent.orderAmount",
    ],
    [
      "an amount in USD",
      { networkCode: "SWIFT", fundoutCurrencyCode: "USD", orderAmount: { amount: 1, currency: "USD" } },
      "bizContent.orderAmount.currency",
    ],
  ])("refuses %s with 400 naming the field", async (_case, bizContent, field) => {
    const refusal = await refused(gateway.merchant(), "/transfer/calculateFundout", bizContent as never)
    expect(refusal).toMatchObject({ code: "400" })
    expect(refusal.msg).toContain(field)
  })
})

describe("a payout amount on the wire (2 decimals)", () => {
  test.prop([fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.constantFrom("JPY", "USD", "AED")], { numRuns: 200 })(
    "is exact for currencies of at most 2 decimals",
    (minorUnits, currency) => {
      const places = currency === "JPY" ? 0 : 2
      expect(toWireForeignMoney({ currency, minorUnits })).toEqual({
        amountMinor: Number(minorUnits * 10n ** BigInt(2 - places)),
        currency,
      })
    },
  )

  test.prop([fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.constantFrom("KWD", "CLF")], { numRuns: 200 })(
    "never shows more than a 3- or 4-decimal payout, and less by under a cent",
    (minorUnits, currency) => {
      const scale = currency === "KWD" ? 10n : 100n
      const shown = BigInt(toWireForeignMoney({ currency, minorUnits }).amountMinor) * scale
      expect(shown <= minorUnits && minorUnits - shown < scale).toBe(true)
    },
  )
})

describe("IBAN holder name", () => {
  const query = (fields: Record<string, string | undefined>, gw = gateway) => {
    const client = gw.merchant()
    const encrypted = Object.fromEntries(
      Object.entries(fields).flatMap(([key, value]) =>
        value === undefined ? [] : [[key, client.encryptField(value)]],
      ),
    )
    return { client, bizContent: encrypted as never }
  }
  const lookUp = async (fields: Record<string, string | undefined>) => {
    const { client, bizContent } = query(fields)
    return (await ok(client, "/transfer/getIbanHolderName", bizContent)).ibanHolderName
  }
  const refusedLookUp = (fields: Record<string, string | undefined>, gw = gateway) => {
    const { client, bizContent } = query(fields, gw)
    return refused(client, "/transfer/getIbanHolderName", bizContent)
  }

  // The form of PayBy's documentation ("1", "TRUE"), with Mizan's levels as docs/api.md#iban-holder-name-matching gives them.
  it.each([
    ["the registered name", "Amal Saeed", "1", "TRUE"],
    ["its words in another order", "SAEED amal", "2", "TRUE"],
    ["an initial for a word", "A. Saeed", "3", "FALSE"],
    ["another person", "Omar Khan", "4", "FALSE"],
  ])("answers the masked holder name and how %s matches, as text", async (_case, holderName, level, result) => {
    expect(await lookUp({ holderName, iban: registeredIban })).toEqual({
      holderNameMask: "A*** S****",
      nameMatchingLevel: level,
      nameMatchingResult: result,
    })
  })

  it("reads the IBAN's paper format (spaces, lower case)", async () => {
    expect(await lookUp({ holderName: "Amal Saeed", iban: "ae07 0331 2345 6789 0123 456" })).toMatchObject({
      nameMatchingResult: "TRUE",
    })
  })

  it("answers 62101 for an IBAN whose check digits fail, and for an absent IBAN", async () => {
    expect(await refusedLookUp({ holderName: "Amal Saeed", iban: "AE070331234567890123457" })).toMatchObject({
      code: "62101",
    })
    expect(await refusedLookUp({ holderName: "Amal Saeed" })).toMatchObject({ code: "62101" })
  })

  it("never repeats the IBAN in the refusal", async () => {
    const refusal = await refusedLookUp({ holderName: "Amal Saeed", iban: "AE070331234567890123457" })
    expect(refusal.msg).not.toContain("AE07")
  })

  it("answers 62102 for a valid IBAN the bank knows no holder of", async () => {
    expect(await refusedLookUp({ holderName: "Amal Saeed", iban: "GB82WEST12345698765432" })).toMatchObject({
      code: "62102",
    })
  })

  it("refuses a holder name and address together over 140 characters with 400", async () => {
    const refusal = await refusedLookUp({
      holderName: "Amal Saeed",
      iban: registeredIban,
      beneficiaryAddress: "x".repeat(131),
    })
    expect(refusal).toMatchObject({ code: "400" })
    expect(refusal.msg).toContain("140")
  })

  it("refuses encrypted fields that do not decrypt, and clear or digested ones, with 400 naming the field", async () => {
    const client = gateway.merchant()
    const notWholeBlocks = Buffer.alloc(300, 1).toString("base64")
    for (const [bizContent, field] of [
      [{ holderName: client.encryptField("Amal Saeed"), iban: notWholeBlocks }, "bizContent.iban"],
      [{ holderName: notWholeBlocks, iban: client.encryptField(registeredIban) }, "bizContent.holderName"],
      [{ holderName: "Amal Saeed", iban: client.encryptField(registeredIban) }, "bizContent.holderName"],
      // The service needs the clear IBAN to check it: its digest is not accepted.
      [{ holderName: client.encryptField("Amal Saeed"), iban: "a".repeat(64) }, "bizContent.iban"],
    ] as const) {
      const refusal = await refused(client, "/transfer/getIbanHolderName", bizContent as never)
      expect(refusal).toMatchObject({ code: "400" })
      expect(refusal.msg).toContain(field)
    }
  })

  describe("in production, where no holder-name directory is connected", () => {
    const production = suiteGateway(startProductionGateway)

    it("answers 62103 for a valid IBAN", async () => {
      expect(await refusedLookUp({ holderName: "Amal Saeed", iban: registeredIban }, production)).toMatchObject({
        code: "62103",
      })
    })
  })
})
