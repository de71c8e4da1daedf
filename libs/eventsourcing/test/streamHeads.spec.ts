import { test } from "@fast-check/vitest"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { StreamHeadCache } from "../src/index.ts"

const headAt = (version: number) => ({ version, chainHash: version.toString(16).padStart(64, "0") as never })

describe("stream head cache", () => {
  it("forgets the least recently remembered streams first, and never the one just remembered", () => {
    const cache = new StreamHeadCache(16)
    for (let i = 0; i < 16; i++) cache.remember(`s-${i}`, headAt(i))
    cache.remember("s-0", headAt(100))
    cache.remember("s-16", headAt(16))
    expect(cache.get("s-16")).toEqual(headAt(16))
    expect(cache.get("s-0")).toEqual(headAt(100))
    expect(cache.get("s-1")).toBeUndefined()
    expect(cache.get("s-15")).toEqual(headAt(15))
  })

  test.prop([
    fc.integer({ min: 1, max: 40 }),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.nat(1_000)), { maxLength: 400 }),
  ])("holds at most its bound, the latest head of each stream it holds, and the most recent streams", (max, writes) => {
    const cache = new StreamHeadCache(max)
    const latest = new Map<string, number>()
    for (const [stream, version] of writes) {
      const streamId = `s-${stream}`
      cache.remember(streamId, headAt(version))
      latest.delete(streamId)
      latest.set(streamId, version)
    }
    const held = [...latest.keys()].filter((streamId) => cache.get(streamId) !== undefined)
    expect(held.length).toBeLessThanOrEqual(max)
    for (const streamId of held) expect(cache.get(streamId)).toEqual(headAt(latest.get(streamId) ?? -1))
    // However it evicts, the streams remembered last (all but the batch it may just have dropped) are held.
    const mostRecent = [...latest.keys()].slice(-(max - Math.floor(max / 8)))
    for (const streamId of mostRecent) expect(cache.get(streamId)).toBeDefined()
  })
})
