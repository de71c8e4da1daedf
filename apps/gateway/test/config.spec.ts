import { describe, expect, it } from "vitest"
import { ConfigError, decodeConfig } from "../src/config.ts"
import { sandboxConfigDefault } from "../src/main.ts"
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
