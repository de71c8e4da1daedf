import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { canonicalJsonByHand } from "../src/chain/canonicalJson.ts"
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

/** An object with these members, in this order, `__proto__` among them as a member (as JSON.parse makes it). */
const objectOf = (entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> => {
  const record: Record<string, unknown> = {}
  for (const [key, value] of entries)
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
  return record
}

/** Keys that test the order: integer-like ones (enumerated first by JavaScript), `__proto__`, any unicode. */
const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.string({ unit: "binary", maxLength: 4 }),
  fc.nat({ max: 200 }).map(String),
  fc.constantFrom("__proto__", "toJSON", "recordedAt", "a", "b", "B", "_tag", "é", "10", "2"),
)

/** JSON values and what JSON.stringify accepts besides: toJSON, undefined members, holes, NaN, -0, dates, boxed values, null prototypes. */
const { value: jsonish } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, undefined, true, false, Number.NaN, -0, Number.POSITIVE_INFINITY, 1e21, 5e-324),
    fc.double(),
    fc.integer(),
    fc.string({ unit: "binary" }),
    fc.string({ unit: "grapheme" }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.sparseArray(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie("value")), { maxLength: 6 }).map(objectOf),
    fc
      .array(fc.tuple(key, tie("value")), { maxLength: 4 })
      .map((entries) => Object.assign(Object.create(null) as object, objectOf(entries))),
    tie("value").map((inner) => ({ toJSON: () => inner })),
    fc.constant({ toJSON: (memberKey: string) => `key ${memberKey}` }),
    fc.date({ noInvalidDate: true }),
    fc.oneof(fc.string(), fc.double(), fc.boolean()).map((primitive) => Object(primitive) as object),
    fc.constant(() => "a function"),
    fc.constant(Symbol("a symbol")),
  ),
}))

describe("canonical JSON's fast path", () => {
  it("writes the same bytes as the definition written member by member, for anything JSON.stringify writes", () =>
    fc.assert(
      fc.property(jsonish, (value) => {
        if (JSON.stringify(value) === undefined) {
          expect(() => canonicalJson(value)).toThrow(TypeError)
          expect(() => canonicalJsonByHand(value)).toThrow(TypeError)
          return
        }
        expect(canonicalJson(value)).toBe(canonicalJsonByHand(value))
      }),
      { numRuns: 2_000 },
    ))

  it("is what JSON.stringify writes, keys sorted: the same bytes for a value and its JSON read back", () =>
    fc.assert(
      fc.property(jsonish, (value) => {
        const stored = JSON.stringify(value)
        if (stored === undefined) return
        expect(canonicalJson(value)).toBe(sortedKeysJson(JSON.parse(stored)))
        // Canonical text read back and written again is the same text: a store may hash the text it keeps.
        expect(canonicalJson(JSON.parse(canonicalJson(value)))).toBe(canonicalJson(value))
      }),
      { numRuns: 2_000 },
    ))

  it("sorts objects of one key set the same in whatever order their keys were inserted", () => {
    const keys = ["b", "10", "_tag", "a", "2", "__proto__", "é"]
    const reversed = objectOf(keys.map((k, i) => [k, i]).reverse() as Array<[string, number]>)
    expect(canonicalJson(objectOf(keys.map((k, i) => [k, i])))).toBe(canonicalJson(reversed))
    expect(canonicalJson(reversed)).toBe('{"10":1,"2":4,"__proto__":5,"_tag":2,"a":3,"b":0,"é":6}')
  })

  it("stays right past the bound of the key orders it remembers", () => {
    for (let n = 0; n < 3_000; n++) {
      const value = objectOf([
        [`k${n}`, n],
        ["a", [n]],
        [`j${n}`, { z: 1, y: 2 }],
      ])
      expect(canonicalJson(value)).toBe(canonicalJsonByHand(value))
    }
  })

  it("writes the same bytes in a process that may not generate code, copying member by member there", () => {
    const value = { b: 1, a: { d: [1, { z: 1, y: 2 }], c: "é" }, _tag: "T" }
    const script = `import { canonicalJson } from ${JSON.stringify(new URL("../src/chain/canonicalJson.ts", import.meta.url).href)}
      process.stdout.write(canonicalJson(${JSON.stringify(value)}))`
    const written = execFileSync(
      process.execPath,
      ["--disallow-code-generation-from-strings", "--input-type=module", "--eval", script],
      { encoding: "utf8" },
    )
    expect(written).toBe(canonicalJsonByHand(value))
  })

  it("refuses what has no JSON form, naming its type", () => {
    expect(() => canonicalJson(undefined)).toThrow("a undefined has no JSON form")
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError)
  })
})

describe("the chain hash", () => {
  it("is SHA-256 over the previous hash's bytes and the whole record's canonical JSON, however it is put together", () =>
    fc.assert(
      fc.property(
        fc.record({
          previous: fc.oneof(fc.constant(chainGenesis), fc.stringMatching(/^[0-9a-f]{64}$/), fc.string()),
          id: fc.string({ unit: "binary" }),
          streamId: fc.string({ unit: "binary" }),
          streamVersion: fc.nat(),
          type: fc.string(),
          schemaVersion: fc.nat(),
          data: jsonish,
          metadata: fc.record(
            { recordedAt: fc.nat(), correlationId: fc.string(), causationId: fc.string() },
            { requiredKeys: ["recordedAt"] },
          ),
        }),
        ({ previous, ...event }) => {
          const wholeRecord = canonicalJsonByHand({
            id: event.id,
            streamId: event.streamId,
            streamVersion: event.streamVersion,
            type: event.type,
            schemaVersion: event.schemaVersion,
            data: event.data,
            metadata: event.metadata,
          })
          const expected = createHash("sha256").update(Buffer.from(previous, "hex")).update(wholeRecord).digest("hex")
          expect(chainHashOf(previous, event)).toBe(expected)
        },
      ),
      { numRuns: 1_000 },
    ))

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

  it("digests the log as SHA-256 over the digest so far and the event's chain hash, 32 bytes each", () => {
    const chainHash = chainHashOf(chainGenesis, record)
    const expected = createHash("sha256").update(Buffer.alloc(32)).update(Buffer.from(chainHash, "hex")).digest("hex")
    expect(logDigestAfter(chainGenesis, chainHash)).toBe(expected)
  })

  it("signs a head's count, last event, digest and time, and never its position in one store", () => {
    const head = { count: 2, lastEventId: "e-2", digest: chainGenesis, signedAt: 5 }
    expect(signedHeadPayload(head)).toBe(
      `{"count":2,"digest":"${chainGenesis}","lastEventId":"e-2","mizanLogHead":1,"signedAt":5}`,
    )
    expect(signedHeadPayload({ ...head, position: 7n } as typeof head)).toBe(signedHeadPayload(head))
  })
})
