import { test } from "@fast-check/vitest"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeRandom } from "../src/random.ts"

describe("makeRandom", () => {
  test.prop([fc.integer(), fc.integer({ min: -1_000, max: 1_000 }), fc.integer({ min: 0, max: 1_000 })], {
    numRuns: 100,
  })("draws integers within both bounds, included", (seed, min, span) => {
    const random = makeRandom(seed)
    for (let i = 0; i < 50; i++) {
      const n = random.int(min, min + span)
      expect(Number.isInteger(n) && n >= min && n <= min + span).toBe(true)
    }
  })

  test.prop([fc.integer()], { numRuns: 50 })("draws the same sequence from the same seed", (seed) => {
    const a = makeRandom(seed)
    const b = makeRandom(seed)
    expect(Array.from({ length: 20 }, a.next)).toEqual(Array.from({ length: 20 }, b.next))
  })

  it("chooses by weight: a key of weight 0 is never chosen", () => {
    const random = makeRandom(1)
    const chosen = new Set(Array.from({ length: 1_000 }, () => random.weighted({ often: 3, sometimes: 1, never: 0 })))
    expect(chosen).toEqual(new Set(["often", "sometimes"]))
  })
})
