import { test } from "@fast-check/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  allocateProportionally,
  type Fils,
  fils,
  formatAed,
  formatFils,
  issueMessage,
  MoneyFromWire,
  maxAmountFils,
  parseFils,
  percentageFee,
} from "../src/index.ts"

const decodeMoney = Schema.decodeUnknownResult(MoneyFromWire)

describe("Money wire codec", () => {
  it.each([
    [0.1, 10],
    ["0.10", 10],
    [100, 10000],
    ["12.5", 1250],
    [999999999999.99, maxAmountFils],
    [0, 0],
  ])("decodes %j to %i fils exactly", (amount, expected) => {
    expect(Result.getOrThrow(decodeMoney({ amount, currency: "AED" }))).toBe(expected)
  })

  it.each([
    ["1.005"],
    ["1e3"],
    [1e21],
    [-1],
    ["-1"],
    [Number.NaN],
    [" 1"],
    ["01"],
    ["1."],
    [".5"],
    ["1000000000000"],
    [1.001],
  ])("refuses %j naming the amount field", (amount) => {
    const result = decodeMoney({ amount, currency: "AED" })
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) {
      expect(issueMessage(result.failure.issue, ["totalAmount"])).toMatch(
        /^totalAmount\.amount must be a decimal amount/,
      )
    }
  })

  it("refuses any currency but AED", () => {
    const result = decodeMoney({ amount: 1, currency: "USD" })
    expect(Result.isFailure(result) && issueMessage(result.failure.issue)).toBe("currency must be AED")
  })

  it("encodes back to a JSON number", () => {
    expect(Schema.encodeSync(MoneyFromWire)(fils(1050))).toEqual({ amount: 10.5, currency: "AED" })
  })

  test.prop([fc.integer({ min: 0, max: maxAmountFils })])("every amount round-trips through its wire number", (n) => {
    const wire = Schema.encodeSync(MoneyFromWire)(fils(n))
    expect(Result.getOrThrow(decodeMoney(JSON.parse(JSON.stringify(wire))))).toBe(n)
    expect(parseFils(formatFils(fils(n)))).toBe(n)
  })
})

describe("formatAed", () => {
  it("writes an amount as a merchant reads it: AED, two decimals, grouped thousands", () => {
    expect(formatAed(fils(0))).toBe("AED 0.00")
    expect(formatAed(fils(10))).toBe("AED 0.10")
    expect(formatAed(fils(123_456_789))).toBe("AED 1,234,567.89")
    expect(formatAed(fils(maxAmountFils))).toBe("AED 999,999,999,999.99")
  })

  it("writes sums past what a Fils holds, and a negative difference, exactly", () => {
    expect(formatAed(BigInt(maxAmountFils) * 3n)).toBe("AED 2,999,999,999,999.97")
    expect(formatAed(-1_050n)).toBe("AED -10.50")
  })

  test.prop([fc.integer({ min: 0, max: maxAmountFils })])("reads back as the amount it wrote", (n) => {
    expect(parseFils(formatAed(fils(n)).slice("AED ".length).replaceAll(",", ""))).toBe(n)
  })
})

describe("allocateProportionally", () => {
  it("gives leftover fils to the largest remainders, ties to the earlier part", () => {
    expect(allocateProportionally(fils(100), [fils(1), fils(1), fils(1)])).toEqual([34, 33, 33])
  })

  test.prop([
    fc
      .array(fc.integer({ min: 0, max: 1_000_000_000 }), { minLength: 1, maxLength: 12 })
      .filter((ws) => ws.some((w) => w > 0)),
    fc.double({ min: 0, max: 1, noNaN: true }),
  ])("parts sum to the whole and never exceed their weight", (weights, share) => {
    const ws = weights.map(fils)
    const total = fils(Math.floor(ws.reduce((a, b) => a + b, 0) * share))
    const parts = allocateProportionally(total, ws)
    expect(parts.reduce((a: number, b) => a + b, 0)).toBe(total)
    parts.forEach((part, i) => {
      expect(part).toBeLessThanOrEqual(ws[i] as Fils)
    })
  })
})

describe("percentageFee", () => {
  it("rounds half up to the fils and adds the fixed part", () => {
    expect(percentageFee(fils(1050), 150, fils(0))).toBe(16) // 15.75 -> 16
    expect(percentageFee(fils(1000), 150, fils(100))).toBe(115)
  })
  it("never exceeds the amount", () => {
    expect(percentageFee(fils(50), 0, fils(100))).toBe(50)
  })
  it("rounds an exact half fils up, and just under a half down", () => {
    // 1% of AED 0.50 is 0.5 fils: one fils. 1% of AED 1.50 is 1.5 fils: two.
    expect(percentageFee(fils(50), 100, fils(0))).toBe(1)
    expect(percentageFee(fils(150), 100, fils(0))).toBe(2)
    // 1% of AED 0.49 is 0.49 fils: none.
    expect(percentageFee(fils(49), 100, fils(0))).toBe(0)
  })
})

describe("fee plans", () => {
  it("charge a percentage in basis points plus a fixed part", async () => {
    const { feeFor } = await import("../src/index.ts")
    expect(feeFor({ basisPoints: 250, fixedFils: fils(50) }, fils(10_000))).toBe(300)
  })
})
