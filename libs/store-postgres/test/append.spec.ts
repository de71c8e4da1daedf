import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { canonicalJson, chainGenesis, chainHashOf, logStart } from "@mizan/eventsourcing"
import { Effect } from "effect"
import pg from "pg"
import { appendBatchMaxEvents, makePostgresEventStore } from "../src/index.ts"
import { freshSchema, openStore, rawClient, sql } from "./support.ts"

const event = (n: number) => ({ type: "Happened", schemaVersion: 1, data: { n } })

describe("postgres appends", () => {
  it.effect(
    "answers a VersionConflict when the unique (stream_id, stream_version) constraint catches a claim the streams table let through",
    () =>
      Effect.gen(function* () {
        const schema = freshSchema()
        const store = yield* openStore(schema)
        yield* store.append("s", [event(1), event(2)], "no_stream")
        // Make the first guard lie: the streams row says version 1 while the log holds 2 events.
        const client = yield* rawClient
        yield* sql(client, `UPDATE "${schema}".streams SET stream_version = 1 WHERE stream_id = 's'`)
        const conflict = yield* Effect.flip(store.append("s", [event(3)], 1))
        expect(conflict).toMatchObject({ _tag: "VersionConflict", streamId: "s", expected: 1, actual: 2 })
        expect((yield* store.readStream("s")).map((e) => e.streamVersion)).toEqual([1, 2])
      }),
  )

  it.effect("stores event data as its canonical JSON text, kept exactly (json, not jsonb), JSON null included", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      const store = yield* openStore(schema)
      const data = { b: 1, a: [null, "\u0000 and \u2028", { z: 1.5e-7 }], dropped: undefined }
      const { records } = yield* store.append(
        "s",
        [
          { type: "A", schemaVersion: 3, data },
          { type: "B", schemaVersion: 1, data: null },
        ],
        "no_stream",
      )
      const read = yield* store.readStream("s")
      expect(read).toEqual(records)
      // The text the chain hash covers, keys sorted, byte for byte: the hash need not encode the data again.
      const client = yield* rawClient
      const rows = yield* sql<{ data: string }>(
        client,
        `SELECT data::text AS data FROM "${schema}".events ORDER BY global_position`,
      )
      expect(rows.map((row) => row.data)).toEqual([canonicalJson(data), "null"])
      expect(Object.keys(read[0]!.data as object)).toEqual(["a", "b"])
      expect(read[0]!.data).toEqual(JSON.parse(JSON.stringify(data)))
      expect(read[1]!.data).toBeNull()
      expect(read[0]!.schemaVersion).toBe(3)
      expect(read[0]!.chainHash).toBe(chainHashOf(chainGenesis, read[0]!))
    }),
  )

  it.effect(
    "verifies a row written before, its data in the caller's key order: the hash is over the data read back",
    () =>
      Effect.gen(function* () {
        const schema = freshSchema()
        const store = yield* openStore(schema)
        const data = { b: 1, a: { z: 0, y: [true, "é"] } }
        yield* store.append("before", [{ type: "T", schemaVersion: 1, data }], "no_stream")
        // What the store wrote before it kept canonical JSON: JSON.stringify's text, keys as the caller gave them.
        const client = yield* rawClient
        yield* sql(client, `UPDATE "${schema}".events SET data = $1::json`, [JSON.stringify(data)])
        const [read] = yield* store.readStream("before")
        expect(Object.keys(read!.data as object)).toEqual(["b", "a"])
        expect(read!.chainHash).toBe(chainHashOf(chainGenesis, read!))
      }),
  )

  it.effect("reads the same rows whatever another library set as pg's process-wide type parsers", () =>
    Effect.gen(function* () {
      // What Emmett's dumbo does when it loads; pg's own parsers are back once the test's scope closes.
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          pg.types.setTypeParser(20, (value) => BigInt(value))
          pg.types.setTypeParser(114, () => "parsed elsewhere")
        }),
        () =>
          Effect.sync(() => {
            pg.types.setTypeParser(20, (value) => value)
            pg.types.setTypeParser(114, JSON.parse)
          }),
      )
      const store = yield* openStore(freshSchema())
      const { records } = yield* store.append("s", [event(1)], "no_stream")
      const read = yield* store.readAll({ after: logStart, maxCount: 10 })
      expect(read).toEqual(records)
      expect(read[0]!.data).toEqual({ n: 1 })
      expect(typeof read[0]!.metadata.recordedAt).toBe("number")
    }),
  )

  it.effect("refuses event data that is not JSON with InvalidRequest", () =>
    Effect.gen(function* () {
      const store = yield* openStore(freshSchema())
      const error = yield* Effect.flip(store.append("s", [{ type: "A", schemaVersion: 1, data: { n: 1n } }], "any"))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
    }),
  )

  it.effect(
    `refuses an append of more than ${appendBatchMaxEvents} events, the room one transaction has in the global order`,
    () =>
      Effect.gen(function* () {
        const store = yield* openStore(freshSchema())
        const events = Array.from({ length: appendBatchMaxEvents + 1 }, (_, i) => event(i))
        const error = yield* Effect.flip(store.append("s", events, "any"))
        expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
        expect(yield* store.readStream("s")).toEqual([])
      }),
  )

  it.effect("refuses a stream id too long for the stream index with InvalidRequest", () =>
    Effect.gen(function* () {
      const store = yield* openStore(freshSchema())
      // Random hex does not compress below the btree's limit of about 2.7 kB per entry.
      const streamId = randomBytes(4_000).toString("hex")
      const error = yield* Effect.flip(store.append(streamId, [event(1)], "no_stream"))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
    }),
  )

  it.effect("fails to open with Unavailable when no server answers", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(makePostgresEventStore("postgres://postgres:x@127.0.0.1:1/postgres"))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "Unavailable" })
      expect(error.message).toContain("ECONNREFUSED")
    }),
  )

  it.effect("reads a stream from a version, a bounded number of events", () =>
    Effect.gen(function* () {
      const store = yield* openStore(freshSchema())
      yield* store.append("s", [event(1), event(2), event(3), event(4)], "no_stream")
      const page = yield* store.readStream("s", { fromVersion: 2, maxCount: 2 })
      expect(page.map((e) => e.streamVersion)).toEqual([2, 3])
    }),
  )
})
