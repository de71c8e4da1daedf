import { readFileSync } from "node:fs"
import { BankCardTransfer } from "@mizan/card-transfer"
import { describe, expect, it } from "vitest"
import { merchantDefaults } from "../src/cli/registration.ts"
import { bankTransferArrivalMinutesOf, ConfigError, decodeConfig } from "../src/config/config.ts"
import { sandboxConfigDefault } from "../src/config/configFile.ts"
import { testConfig } from "./harness.ts"

const merchant = { partnerId: "M1", publicKeyPem: "PEM", grants: ["*"] }
const refusalOf = (json: unknown): string => {
  try {
    decodeConfig(json)
    return "accepted"
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).message
  }
}

describe("the configuration file", () => {
  it("accepts the sandbox configuration a fresh clone starts with, and the tests' own", () => {
    expect(decodeConfig(sandboxConfigDefault)).toEqual(sandboxConfigDefault)
    expect(refusalOf(JSON.parse(JSON.stringify(testConfig())))).toBe("accepted")
  })

  it("refuses a key it does not know, naming it, rather than leave a default in force unseen", () => {
    expect(refusalOf({ mode: "sandbox", merchants: [], bodyLimitByte: 10 })).toBe(
      "configuration: bodyLimitByte is not a known field",
    )
    expect(refusalOf({ mode: "sandbox", merchants: [{ ...merchant, grant: ["*"] }] })).toBe(
      "configuration: merchants[0].grant is not a known field",
    )
  })

  it("takes the log's format and level, and refuses a typo in either, naming the field", () => {
    const config = { mode: "sandbox", merchants: [] }
    expect(refusalOf({ ...config, logging: { format: "pretty", level: "warn" } })).toBe("accepted")
    expect(refusalOf({ ...config, logging: { format: "xml" } })).toMatch(
      /^configuration: logging\.format must be one of json, pretty/,
    )
    expect(refusalOf({ ...config, logging: { level: "verbose" } })).toMatch(
      /^configuration: logging\.level must be one of debug, info, warn, error/,
    )
    expect(refusalOf({ ...config, readyNotifierMaxLagSeconds: 0 })).toMatch(
      /^configuration: readyNotifierMaxLagSeconds/,
    )
  })

  it("reads readyNotifierLagSecondsMax, the key's name before its unit went last, as readyNotifierMaxLagSeconds, with a warning", () => {
    const warnings: Array<string> = []
    const config = decodeConfig({ mode: "sandbox", merchants: [], readyNotifierLagSecondsMax: 45 }, (w) =>
      warnings.push(w),
    )
    expect(config.readyNotifierMaxLagSeconds).toBe(45)
    expect(warnings).toEqual([
      "configuration: readyNotifierLagSecondsMax is now readyNotifierMaxLagSeconds: the old name is still read, for now; write the new one",
    ])
    expect(refusalOf({ mode: "sandbox", merchants: [], readyNotifierLagSecondsMax: 0 })).toMatch(
      /^configuration: readyNotifierMaxLagSeconds must be/,
    )
  })

  it("refuses a payout currency the service cannot pay out in, before any calculation meets it", () => {
    const ability = { countryCode: "US", networkCode: "SWIFT", name: "SWIFT", beneficiaryType: "IBAN" }
    expect(
      refusalOf({
        mode: "sandbox",
        merchants: [{ ...merchant, payoutAbilities: [{ ...ability, fundoutCurrencyCode: "XYZ" }] }],
      }),
    ).toBe("configuration: merchants[0].payoutAbilities[0].fundoutCurrencyCode must be an ISO 4217 currency code")
    expect(refusalOf({ mode: "sandbox", merchants: [], rates: [{ fundoutCurrencyCode: "QQQ", rate: "1.5" }] })).toBe(
      "configuration: rates[0].fundoutCurrencyCode must be an ISO 4217 currency code",
    )
    expect(
      refusalOf({
        mode: "sandbox",
        merchants: [{ ...merchant, payoutAbilities: [{ ...ability, fundoutCurrencyCode: "USD" }] }],
      }),
    ).toBe("accepted")
  })

  describe("bankTransferArrivalMinutes", () => {
    const ability = { countryCode: "UAE", fundoutCurrencyCode: "AED", name: "Network", beneficiaryType: "IBAN" }
    const paying = (...networkCodes: ReadonlyArray<string>) => ({
      mode: "sandbox",
      merchants: [{ ...merchant, payoutAbilities: networkCodes.map((networkCode) => ({ ...ability, networkCode })) }],
    })

    it("gives LOCAL an hour and SWIFT two days unless told otherwise, and takes a network's own delay in its place", () => {
      expect(bankTransferArrivalMinutesOf(decodeConfig(paying("LOCAL", "SWIFT")))).toEqual({ LOCAL: 60, SWIFT: 2_880 })
      const config = decodeConfig({
        ...paying("LOCAL", "SWIFT", "AANI"),
        bankTransferArrivalMinutes: { SWIFT: 1_440, AANI: 0 },
      })
      expect(bankTransferArrivalMinutesOf(config)).toEqual({ LOCAL: 60, SWIFT: 1_440, AANI: 0 })
    })

    it("refuses a misspelt network, which would leave the default in force unseen, naming the networks it knows", () =>
      expect(refusalOf({ ...paying("LOCAL", "SWIFT"), bankTransferArrivalMinutes: { SWFT: 1_440 } })).toBe(
        "configuration: bankTransferArrivalMinutes.SWFT is no network a merchant pays out through nor a default's (LOCAL, SWIFT)",
      ))

    it("refuses a merchant's network that has no delay, saying what to add", () =>
      expect(refusalOf(paying("LOCAL", "AANI"))).toBe(
        'configuration: merchant M1 pays out through networkCode AANI, which bankTransferArrivalMinutes gives no delay: add "AANI": <minutes>',
      ))

    it.each([["2 days"], [-1], [90.5], [44_641]])("refuses %j minutes, naming the network", (minutes) =>
      expect(refusalOf({ ...paying("SWIFT"), bankTransferArrivalMinutes: { SWIFT: minutes } })).toMatch(
        /^configuration: bankTransferArrivalMinutes\.SWIFT must be a whole number of minutes from 0 to 44640 \(a month\)/,
      ),
    )

    it("takes a month to the minute, and no delay at all", () => {
      expect(refusalOf({ ...paying("SWIFT"), bankTransferArrivalMinutes: { SWIFT: 44_640 } })).toBe("accepted")
      expect(refusalOf({ ...paying("SWIFT"), bankTransferArrivalMinutes: { SWIFT: 0 } })).toBe("accepted")
    })
  })

  it("refuses a grant that names no operation, which would grant nothing unseen", () => {
    expect(refusalOf({ mode: "sandbox", merchants: [{ ...merchant, grants: ["/acquire2/getorder"] }] })).toBe(
      'configuration: merchants[0].grants[0] must be "*" or an operation path of the merchant API, such as /acquire2/placeOrder',
    )
    expect(refusalOf({ mode: "sandbox", merchants: [{ ...merchant, grants: ["/acquire2/getOrder", "*"] }] })).toBe(
      "accepted",
    )
  })

  it("refuses a public address or a notification URL that is not an http(s) URL", () => {
    expect(refusalOf({ mode: "sandbox", merchants: [], publicBaseUrl: "pay.example.com" })).toBe(
      "configuration: publicBaseUrl must be an absolute http:// or https:// URL",
    )
    expect(refusalOf({ mode: "sandbox", merchants: [{ ...merchant, vamNotifyUrl: "ftp://m.example/vam" }] })).toBe(
      "configuration: merchants[0].vamNotifyUrl must be an absolute http:// or https:// URL",
    )
    expect(refusalOf({ mode: "sandbox", merchants: [], publicBaseUrl: "https://pay.example.com/mizan" })).toBe(
      "accepted",
    )
  })

  it("takes a merchant's logo over https and brand colour as hex, and the pay page's footer links, naming a wrong one", () => {
    const branded = { ...merchant, logoUrl: "https://m.example/logo.png", brandColor: "#0a7d3b" }
    const payPage = {
      serviceName: "Mizan Pay",
      termsUrl: "https://pay.example/terms",
      privacyUrl: "https://pay.example/privacy",
    }
    expect(refusalOf({ mode: "sandbox", merchants: [branded], payPage })).toBe("accepted")
    expect(refusalOf({ mode: "sandbox", merchants: [{ ...branded, logoUrl: "http://m.example/logo.png" }] })).toBe(
      "configuration: merchants[0].logoUrl must be an https:// URL",
    )
    expect(refusalOf({ mode: "sandbox", merchants: [{ ...branded, brandColor: "green" }] })).toBe(
      'configuration: merchants[0].brandColor must be a colour as six hex digits, like "#1b4fa0"',
    )
    expect(refusalOf({ mode: "sandbox", merchants: [], payPage: { ...payPage, termsUrl: "terms.html" } })).toBe(
      "configuration: payPage.termsUrl must be an absolute http:// or https:// URL",
    )
  })

  it("accepts the terms `npm run merchant -- add` gives a new merchant, bank card product included", () => {
    const registered = merchantDefaults("M1", "merchants/M1/public.pem")
    expect(registered.products).toEqual([BankCardTransfer.bankCardTransferProduct])
    expect(refusalOf({ mode: "sandbox", merchants: [registered] })).toBe("accepted")
  })

  it("refuses a product the service does not know, which would enable nothing", () => {
    expect(refusalOf({ mode: "sandbox", merchants: [{ ...merchant, products: ["BANK_CARD_TRANSFER"] }] })).toBe(
      "configuration: merchants[0].products[0] must be one of TRANSFER_TO_BANK_CARD",
    )
  })

  it("is documented in the configuration reference under the one product name it takes", () => {
    const products = readFileSync(new URL("../CONFIGURATION.md", import.meta.url), "utf8")
      .split("\n")
      .find((line) => line.startsWith("| `products`"))
    expect(products).toContain(`\`${BankCardTransfer.bankCardTransferProduct}\``)
    expect(products?.match(/`[A-Z_]+`/g)).toEqual([`\`${BankCardTransfer.bankCardTransferProduct}\``])
  })

  it("names what is missing or wrong", () => {
    expect(refusalOf({ mode: "staging", merchants: [] })).toMatch(/^configuration: mode /)
    expect(refusalOf({ mode: "sandbox" })).toBe("configuration: merchants is required")
    expect(refusalOf({ mode: "sandbox", merchants: [{ partnerId: "M1", grants: [] }] })).toBe(
      "configuration: merchant M1 needs exactly one of publicKeyPem or publicKeyFile",
    )
    expect(refusalOf({ mode: "sandbox", merchants: [merchant, merchant] })).toBe(
      "configuration: merchant M1 is listed twice",
    )
  })
})
