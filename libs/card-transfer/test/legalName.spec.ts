import { describe, expect, it } from "vitest"
import { legalNameShape } from "../src/index.ts"

describe("legal name shape", () => {
  it.each([
    ["Emirates Trading LLC", "PLAUSIBLE"],
    ["شركة الإمارات للتجارة", "PLAUSIBLE"],
    ["3M", "PLAUSIBLE"],
    ["A&B", "PLAUSIBLE"],
    ["  ", "EMPTY"],
    ["X", "ONE_CHARACTER"],
    [" Z ", "ONE_CHARACTER"],
    ["123456", "ALL_DIGITS"],
    ["12 34", "ALL_DIGITS"],
    ["٣٤٥", "ALL_DIGITS"],
    ["---", "ALL_PUNCTUATION"],
    ["&. ,", "ALL_PUNCTUATION"],
    ["12-34", "NO_LETTERS"],
  ])("classifies %j as %s", (name, shape) => {
    expect(legalNameShape(name)).toBe(shape)
  })
})
