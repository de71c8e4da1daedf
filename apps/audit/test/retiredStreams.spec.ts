/**
 * The columns of the retired streams (src/retiredStreams.ts): a retired
 * stream's kind and fields by the index `add` gave, and an index that holds
 * no retired stream (revived since, or never given) refused by name.
 */
import { describe, expect, it } from "@effect/vitest"
import { registry } from "../src/model/registry.ts"
import { RetiredStreams } from "../src/replay/retiredStreams.ts"

const [first, second] = registry

const retiredFields = (streamId: string) => ({
  streamId,
  state: { status: "ended" },
  version: 3,
  lastPosition: 7n,
  lastRecordedAt: 1_000,
  firstRead: 2,
})

describe("the retired streams", () => {
  it("gives a retired stream's kind by its index, and refuses it once the stream is revived", () => {
    const retired = new RetiredStreams()
    const a = retired.add(retiredFields("a-1"), first!)
    const b = retired.add(retiredFields("b-1"), second!)
    expect([retired.kindOf(a), retired.kindOf(b)]).toEqual([first!.kind, second!.kind])
    expect(retired.revive(a)).toEqual({ ...retiredFields("a-1"), aggregate: first })
    expect(() => retired.kindOf(a)).toThrow(`No retired stream at index ${a}: never retired, or revived since`)
    expect(() => retired.fieldsOf(a)).toThrow(`No retired stream at index ${a}`)
    expect(() => retired.kindOf(5)).toThrow("No retired stream at index 5")
    expect([...retired.indexes()].map((index) => retired.kindOf(index))).toEqual([second!.kind])
  })
})
