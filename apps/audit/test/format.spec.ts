import { test } from "@fast-check/vitest"
import { parseFils } from "@mizan/kernel"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { progressLine, wantsProgress } from "../src/cli/progress.ts"
import { formatFilsBig, toJson } from "../src/index.ts"

describe("money in reports", () => {
  test.prop([fc.bigInt({ min: 0n, max: 99_999_999_999_999n })], { numRuns: 200 })(
    "prints a sum of fils as the decimal the wire reads back to the same fils",
    (fils) => {
      expect(BigInt(parseFils(formatFilsBig(fils))!)).toBe(fils)
    },
  )

  it("prints sums beyond any single amount, and below zero, exactly", () => {
    expect(formatFilsBig(123_456_789_012_345_678_901n)).toBe("1234567890123456789.01")
    expect(formatFilsBig(-5n)).toBe("-0.05")
  })
})

describe("states as JSON", () => {
  it("writes bigints as decimal text and Maps as objects", () => {
    expect(toJson({ minorUnits: 12n, credits: new Map([["T-1", 100]]) })).toBe(
      '{"minorUnits":"12","credits":{"T-1":100}}',
    )
  })
})

describe("the progress bar", () => {
  it("shows the share done, the rate and the time left when the total is known", () => {
    expect(progressLine("replay", 250_000, 1_000_000, 2_500)).toBe(
      "replay [#####---------------]  25%  250,000/1,000,000 events  100,000 events/s  8 s left",
    )
  })

  it("shows the rate alone when the total is not known", () => {
    expect(progressLine("replay", 5_000, undefined, 1_000)).toBe("replay  5,000 events  5,000 events/s")
  })

  it("is drawn on a terminal only, and never in CI", () => {
    expect(wantsProgress({ isTTY: true, write: () => true }, {})).toBe(true)
    expect(wantsProgress({ isTTY: false, write: () => true }, {})).toBe(false)
    expect(wantsProgress({ isTTY: true, write: () => true }, { CI: "true" })).toBe(false)
  })
})
