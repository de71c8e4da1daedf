import { createHash } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { canonicalJson, chainGenesis, chainHashOf, logDigestAfter, signedHeadPayload } from "../src/index.ts"

const record = {
  id: "e-1",
  streamId: "s",
  streamVersion: 1,
  type: "Happened",
  schemaVersion: 1,
  data: { b: 1, a: [1, "x"] },
  metadata: { recordedAt: 1_767_225_600_000 },
}

/** The definition, written plainly as the test's oracle: members in sorted key order, each written as JSON writes it. */
const sortedKeysJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(sortedKeysJson).join(",")}]`
  if (value === null || typeof value !== "object") return JSON.stringify(value)
  const record = value as Record<string, unknown>
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${sortedKeysJson(record[key])}`)
    .join(",")}}`
}

describe("canonical JSON", () => {
  it("is every object's members in sorted key order, integer-like keys among them, for any JSON value", () =>
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.dictionary(fc.oneof(fc.string(), fc.nat().map(String)), fc.jsonValue())),
        (value) => {
          const stored = JSON.parse(JSON.stringify(value)) as unknown
          expect(canonicalJson(stored)).toBe(sortedKeysJson(stored))
        },
      ),
    ))

  it("sorts keys by code unit, integer-like keys included, with no whitespace", () => {
    expect(canonicalJson({ b: 1, "10": 2, a: { z: null, "2": [true, 0.5] }, "1": "é" })).toBe(
      '{"1":"é","10":2,"a":{"2":[true,0.5],"z":null},"b":1}',
    )
  })

  it("writes a member named __proto__ as a member, sorted with the rest", () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":2},"a":0}'))).toBe('{"__proto__":{"x":2},"a":0,"b":1}')
  })

  it("leaves out undefined members, as the JSON a store keeps does", () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}')
  })

  it("gives the same bytes for a value and for the value read back from its stored JSON text", () =>
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.json().map((text) => JSON.parse(text) as unknown),
        ),
        (value) => {
          expect(canonicalJson(JSON.parse(JSON.stringify(value)))).toBe(canonicalJson(value))
          expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
        },
      ),
    ))
})

describe("the chain hash", () => {
  it("is SHA-256 over the previous hash's 32 bytes and the record's canonical JSON", () => {
    const expected = createHash("sha256")
      .update(Buffer.alloc(32))
      .update(
        '{"data":{"a":[1,"x"],"b":1},"id":"e-1","metadata":{"recordedAt":1767225600000},"schemaVersion":1,"streamId":"s","streamVersion":1,"type":"Happened"}',
      )
      .digest("hex")
    expect(chainHashOf(chainGenesis, record)).toBe(expected)
  })

  it("ignores the global position and any field outside the record, and changes with every recorded field", () => {
    const hash = chainHashOf(chainGenesis, record)
    expect(chainHashOf(chainGenesis, { ...record, globalPosition: 99n } as typeof record)).toBe(hash)
    for (const changed of [
      { id: "e-2" },
      { streamId: "t" },
      { streamVersion: 2 },
      { type: "Other" },
      { schemaVersion: 2 },
      { data: { b: 2, a: [1, "x"] } },
      { metadata: { recordedAt: 1_767_225_600_001 } },
      { metadata: { recordedAt: 1_767_225_600_000, correlationId: "c" } },
    ])
      expect(chainHashOf(chainGenesis, { ...record, ...changed })).not.toBe(hash)
    expect(chainHashOf(hash, record)).not.toBe(hash)
  })

  it("digests the log in order: the same hashes in another order give another digest", () => {
    const [a, b] = [chainHashOf(chainGenesis, record), chainHashOf(chainGenesis, { ...record, id: "e-2" })]
    expect(logDigestAfter(logDigestAfter(chainGenesis, a), b)).not.toBe(
      logDigestAfter(logDigestAfter(chainGenesis, b), a),
    )
  })

  it("signs a head's count, last event, digest and time, and never its position in one store", () => {
    const head = { count: 2, lastEventId: "e-2", digest: chainGenesis, signedAt: 5 }
    expect(signedHeadPayload(head)).toBe(
      `{"count":2,"digest":"${chainGenesis}","lastEventId":"e-2","mizanLogHead":1,"signedAt":5}`,
    )
    expect(signedHeadPayload({ ...head, position: 7n } as typeof head)).toBe(signedHeadPayload(head))
  })
})
