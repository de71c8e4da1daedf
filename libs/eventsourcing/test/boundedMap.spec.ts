import { test } from "@fast-check/vitest"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { setBounded } from "../src/boundedMap.ts"

describe("a bounded map", () => {
  it("past its bound forgets the oldest eighth of it at once, never the entry just set", () => {
    const map = new Map<string, number>()
    for (let i = 0; i < 16; i++) setBounded(map, `k-${i}`, i, 16)
    expect(map.size).toBe(16)
    setBounded(map, "k-16", 16, 16)
    expect([...map.keys()]).toEqual(Array.from({ length: 14 }, (_, i) => `k-${i + 3}`))
    setBounded(map, "k-17", 17, 16)
    expect(map.size).toBe(15)
  })

  it("keeps the entry just set under a bound of one or none", () => {
    for (const max of [0, 1]) {
      const map = new Map<string, number>()
      setBounded(map, "a", 1, max)
      setBounded(map, "b", 2, max)
      expect([...map]).toEqual([["b", 2]])
    }
  })

  test.prop([
    fc.integer({ min: 1, max: 40 }),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.nat(1_000)), { maxLength: 400 }),
  ])("holds at most its bound, each key's latest value, and the keys first set most recently", (max, writes) => {
    const map = new Map<string, number>()
    const firstSet = new Map<string, number>()
    for (const [n, value] of writes) {
      const key = `k-${n}`
      // Setting a key it holds does not make it newer (insertion order); one it forgot comes back as new.
      if (!map.has(key)) firstSet.delete(key)
      setBounded(map, key, value, max)
      firstSet.set(key, value)
    }
    expect(map.size).toBeLessThanOrEqual(max)
    for (const [key, value] of map) expect(firstSet.get(key)).toBe(value)
    const newest = [...firstSet.keys()].slice(-(max - Math.floor(max / 8)))
    for (const key of newest) expect(map.has(key)).toBe(true)
  })
})
