/**
 * The writer stores an event's data as canonical JSON and hashes that very
 * text; it answers the caller's own value as the record's data when it
 * reads back equal (`readsBackEqual`), and parses the text otherwise.
 * Either way the chain hash it stores is the one `verify` recomputes from
 * the record a read returns.
 */
import { DatabaseSync } from "node:sqlite"
import { test } from "@fast-check/vitest"
import { canonicalJson, chainGenesis, chainHashOf, type NewEvent } from "@mizan/eventsourcing"
import { Effect, type Scope } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { SqliteEventStore } from "../src/index.ts"
import { readsBackEqual } from "../src/rows.ts"
import { openFreshStore } from "./support/stores.ts"

const run = <A>(body: (store: SqliteEventStore, path: string) => Effect.Effect<A, unknown, Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(openFreshStore(), ({ store, path }) => body(store, path))))

/** Values of every kind JavaScript has: dates, boxed values, maps, sparse arrays, -0, NaN, undefined members. */
const anything = fc.anything({
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withSparseArray: true,
  withObjectString: true,
  withTypedArray: true,
  withBigInt: false,
})

describe("readsBackEqual", () => {
  test.prop([anything], { numRuns: 2_000 })(
    "holds only of values that their JSON reads back as, canonical bytes and all",
    (value) => {
      if (!readsBackEqual(value)) return
      const readBack = JSON.parse(JSON.stringify(value))
      expect(readBack).toStrictEqual(value)
      expect(canonicalJson(readBack)).toBe(canonicalJson(value))
    },
  )

  test.prop([fc.jsonValue()], { numRuns: 500 })(
    "holds of JSON values but those holding -0, which reads back as 0",
    (value) => {
      const holdsNegativeZero = (v: unknown): boolean =>
        Object.is(v, -0) || (typeof v === "object" && v !== null && Object.values(v).some(holdsNegativeZero))
      expect(readsBackEqual(value)).toBe(!holdsNegativeZero(value))
    },
  )

  it("refuses what reads back changed: a date, undefined, NaN, -0, a boxed string, a hole, a class", () => {
    class Point {
      x = 1
    }
    for (const value of [
      new Date(0),
      undefined,
      Number.NaN,
      -0,
      new String("a"),
      // A hole: an array of length 2 with nothing at 0.
      Object.assign(new Array<number>(2), { 1: 1 }),
      new Point(),
      { a: undefined },
    ])
      expect(readsBackEqual(value), String(value)).toBe(false)
  })
})

describe("the chain hash of data that reads back changed", () => {
  it("is the hash of the record a read returns, as for any other data", () =>
    run((store) =>
      Effect.gen(function* () {
        const changed: NewEvent = {
          type: "Odd",
          schemaVersion: 1,
          data: { at: new Date(0), gone: undefined, zero: -0, list: [1, undefined], boxed: new String("b") },
        }
        const appended = yield* store.append("odd", [changed], "no_stream")
        const [read] = yield* store.readStream("odd")
        expect(read!.data).toEqual({ at: "1970-01-01T00:00:00.000Z", zero: 0, list: [1, null], boxed: "b" })
        expect(read!.chainHash).toBe(chainHashOf(chainGenesis, read!))
        expect(appended.records[0]!.chainHash).toBe(read!.chainHash)
      }),
    ))
})

describe("the stored JSON", () => {
  test.prop([fc.jsonValue()], { numRuns: 50 })(
    "is the data's canonical JSON, keys sorted, and the chain hash covers it as a read gives it",
    (data) =>
      run((store, path) =>
        Effect.gen(function* () {
          yield* store.append(
            "canonical",
            [{ type: "Any", schemaVersion: 1, data, metadata: { causationId: "c" } }],
            "any",
          )
          const [read] = yield* store.readStream("canonical")
          const raw = new DatabaseSync(path, { readOnly: true })
          const row = raw.prepare("SELECT data, metadata FROM events").get() as { data: string; metadata: string }
          raw.close()
          expect(row.data).toBe(canonicalJson(data))
          expect(row.metadata).toBe('{"causationId":"c"}')
          expect(read!.chainHash).toBe(chainHashOf(chainGenesis, read!))
        }),
      ),
  )

  it("verifies a row written before, its data in the caller's key order: the hash is over the data read back", () =>
    run((store, path) =>
      Effect.gen(function* () {
        const data = { b: 1, a: { z: 0, y: [true, "é"] } }
        yield* store.append("before", [{ type: "T", schemaVersion: 1, data }], "no_stream")
        // What the store wrote before it kept canonical JSON: JSON.stringify's text, keys as the caller gave them.
        const raw = new DatabaseSync(path)
        raw.prepare("UPDATE events SET data = ?").run(JSON.stringify(data))
        raw.close()
        const [read] = yield* store.readStream("before")
        expect(Object.keys(read!.data as object)).toEqual(["b", "a"])
        expect(read!.chainHash).toBe(chainHashOf(chainGenesis, read!))
      }),
    ))

  it("orders the keys of objects written in any order, integer-like keys among them", () =>
    run((store, path) =>
      Effect.gen(function* () {
        yield* store.append(
          "ordered",
          [{ type: "T", schemaVersion: 1, data: { b: 1, "10": 2, a: { z: 0, "2": 1 } } }],
          "no_stream",
        )
        const raw = new DatabaseSync(path, { readOnly: true })
        const row = raw.prepare("SELECT data FROM events").get() as { data: string }
        raw.close()
        expect(row.data).toBe('{"10":2,"a":{"2":1,"z":0},"b":1}')
      }),
    ))
})
