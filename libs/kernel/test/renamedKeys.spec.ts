import { describe, expect, it } from "vitest"
import { acceptRenamedKeys } from "../src/index.ts"

const renames = { lagSecondsMax: "maxLagSeconds" }

describe("acceptRenamedKeys", () => {
  it("reads an old key under its new name and warns with both names", () => {
    const { value, warnings } = acceptRenamedKeys({ port: 1, lagSecondsMax: 30 }, renames)
    expect(value).toStrictEqual({ port: 1, maxLagSeconds: 30 })
    expect(warnings).toEqual([
      "lagSecondsMax is now maxLagSeconds: the old name is still read, for now; write the new one",
    ])
  })

  it("keeps the new key when both are given, and says the old one is ignored", () => {
    const { value, warnings } = acceptRenamedKeys({ lagSecondsMax: 30, maxLagSeconds: 5 }, renames)
    expect(value).toStrictEqual({ maxLagSeconds: 5 })
    expect(warnings).toEqual([
      "lagSecondsMax is now maxLagSeconds, which is also given: lagSecondsMax is ignored; remove it",
    ])
  })

  it("leaves a value with only new names, and anything but a plain object, as it is, without a warning", () => {
    expect(acceptRenamedKeys({ maxLagSeconds: 5 }, renames)).toStrictEqual({
      value: { maxLagSeconds: 5 },
      warnings: [],
    })
    expect(acceptRenamedKeys([1], renames)).toStrictEqual({ value: [1], warnings: [] })
    expect(acceptRenamedKeys(null, renames)).toStrictEqual({ value: null, warnings: [] })
  })
})
