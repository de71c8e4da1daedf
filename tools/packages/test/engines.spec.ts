import { describe, expect, it } from "vitest"
import { meetsEngines } from "../src/engines.ts"

describe("engines.node", () => {
  it("admits the bound itself and every later version, part by part", () => {
    expect(meetsEngines(">=20.20.0", "v20.20.0")).toBe(true)
    expect(meetsEngines(">=20.20.0", "v20.20.2")).toBe(true)
    expect(meetsEngines(">=20.20.0", "v24.0.0")).toBe(true)
    expect(meetsEngines(">=24.0.0", "v24.21.0")).toBe(true)
  })

  it("refuses every earlier version, whichever part is lower", () => {
    expect(meetsEngines(">=24.0.0", "v20.20.2")).toBe(false)
    expect(meetsEngines(">=20.20.0", "v20.19.9")).toBe(false)
    expect(meetsEngines(">=20.20.1", "v20.20.0")).toBe(false)
  })

  it("refuses a range it cannot read rather than guessing", () => {
    expect(() => meetsEngines("^22.13.0 || >=24", "v24.0.0")).toThrow(/not of the form/)
  })
})
