import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { logStart, type NewEvent, StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeSqliteEventStore, schemaVersionCurrent } from "../src/index.ts"
import { openSqliteKeyTable } from "../src/keyTable.ts"
import type { LogSync } from "../src/logSync.ts"
import { openSqliteEventStore } from "../src/store.ts"
import { tempDatabasePath } from "./support/stores.ts"

const happened: NewEvent = { type: "Happened", schemaVersion: 1, data: { n: 1 } }

const run = <A>(body: (path: string) => Effect.Effect<A, unknown, import("effect").Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(tempDatabasePath, body)))

/** Opens the store at `path` and closes it again, answering the StoreError it failed with. */
const openingFails = (path: string, options?: Parameters<typeof makeSqliteEventStore>[1]) =>
  Effect.flip(Effect.scoped(makeSqliteEventStore(path, options)))

/** A store file holding three events, closed (its log checkpointed into the file). */
const writtenStore = (path: string) =>
  Effect.scoped(
    Effect.flatMap(makeSqliteEventStore(path), (store) =>
      store.append("s", [happened, happened, happened], "no_stream"),
    ),
  )

describe("a file written by a newer schema", () => {
  it("is refused with NewerSchema, naming the file's version and the version this code knows", () =>
    run((path) =>
      Effect.gen(function* () {
        yield* writtenStore(path)
        const raw = new DatabaseSync(path)
        raw.exec(`PRAGMA user_version = ${schemaVersionCurrent + 1}`)
        raw.close()
        const error = yield* openingFails(path)
        expect(error).toBeInstanceOf(StoreError)
        expect(error.reason).toBe("NewerSchema")
        expect(error.detail).toContain(`schema version ${schemaVersionCurrent + 1}`)
        expect(error.detail).toContain(`version ${schemaVersionCurrent} that this code knows`)
      }),
    ))
})

describe("a file that is not a database, or is damaged", () => {
  it("refuses a file that is not an SQLite database with Corrupt, and leaves it as it was", () =>
    run((path) =>
      Effect.gen(function* () {
        const garbage = "these are not the bytes of a database\n".repeat(200)
        writeFileSync(path, garbage)
        const error = yield* openingFails(path)
        expect(error).toMatchObject({ _tag: "StoreError", reason: "Corrupt" })
        expect(error.detail).toContain(path)
        expect(readFileSync(path, "utf8")).toBe(garbage)
      }),
    ))

  it("answers Corrupt when the pages holding the events are damaged", () =>
    run((path) =>
      Effect.gen(function* () {
        yield* writtenStore(path)
        // Overwrite everything after the first page (the header and the schema) with garbage.
        const bytes = readFileSync(path)
        const pageSizeBytes = bytes.readUInt16BE(16)
        bytes.fill(0xa5, pageSizeBytes)
        writeFileSync(path, bytes)
        const failure = yield* Effect.flip(
          Effect.scoped(
            Effect.flatMap(makeSqliteEventStore(path), (store) => store.readAll({ after: logStart, maxCount: 10 })),
          ),
        )
        expect(failure).toMatchObject({ _tag: "StoreError", reason: "Corrupt" })
      }),
    ))
})

describe("a file locked by another writer", () => {
  it("fails an append with Locked after the busy timeout, and appends once the lock is released", () =>
    run((path) =>
      Effect.gen(function* () {
        const store = yield* makeSqliteEventStore(path, { busyTimeoutMs: 50 })
        const other = new DatabaseSync(path)
        other.exec("BEGIN IMMEDIATE")
        const locked = yield* Effect.flip(store.append("s", [happened], "no_stream"))
        expect(locked).toMatchObject({ _tag: "StoreError", reason: "Locked" })
        expect((locked as StoreError).detail).toContain("busy timeout")
        other.exec("COMMIT")
        other.close()
        expect((yield* store.append("s", [happened], "no_stream")).streamVersion).toBe(1)
      }),
    ))

  it("refuses to open a new file with Locked while another connection holds its write lock", () =>
    run((path) =>
      Effect.gen(function* () {
        const other = new DatabaseSync(path)
        other.exec("PRAGMA journal_mode = WAL; BEGIN IMMEDIATE")
        const error = yield* openingFails(path, { busyTimeoutMs: 50 })
        other.exec("ROLLBACK")
        other.close()
        expect(error).toMatchObject({ _tag: "StoreError", reason: "Locked" })
      }),
    ))
})

describe("a path that cannot be opened", () => {
  it("answers Unavailable for a file in a folder that does not exist", () =>
    run((path) =>
      Effect.map(openingFails(join(dirname(path), "missing", "events.db")), (error) =>
        expect(error).toMatchObject({ _tag: "StoreError", reason: "Unavailable" }),
      ),
    ))

  it("answers Unavailable for a folder", () =>
    run((path) => {
      mkdirSync(path)
      return Effect.map(openingFails(path), (error) =>
        expect(error).toMatchObject({ _tag: "StoreError", reason: "Unavailable" }),
      )
    }))

  it("names what it was opening: the event store, or a key table alone", () =>
    run((path) => {
      mkdirSync(path)
      return Effect.gen(function* () {
        const whatOf = (error: StoreError) => error.detail.split(": ")[0]
        expect(whatOf(yield* openingFails(path))).toBe(`opening the event store at ${path}`)
        expect(whatOf(yield* Effect.flip(Effect.scoped(openSqliteKeyTable(path))))).toBe(
          `opening the key table at ${path}`,
        )
      })
    }))

  it("refuses another application's SQLite database with Unavailable and adds nothing to it", () =>
    run((path) =>
      Effect.gen(function* () {
        const other = new DatabaseSync(path)
        other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
        other.close()
        const bytesBefore = readFileSync(path)
        const error = yield* openingFails(path)
        expect(error).toMatchObject({ _tag: "StoreError", reason: "Unavailable" })
        expect(error.detail).toContain("another application's")
        const tables = new DatabaseSync(path, { readOnly: true })
        expect(
          tables
            .prepare("SELECT name FROM sqlite_schema")
            .all()
            .map((t) => t.name),
        ).toEqual(["invoices"])
        tables.close()
        expect(readFileSync(path).equals(bytesBefore)).toBe(true)
      }),
    ))

  it("answers Unavailable to an append after the store's scope has closed", () =>
    run((path) =>
      Effect.gen(function* () {
        const store = yield* Effect.scoped(makeSqliteEventStore(path))
        const error = yield* Effect.flip(store.append("s", [happened], "no_stream"))
        expect(error).toMatchObject({ _tag: "StoreError", reason: "Unavailable" })
      }),
    ))
})

describe("requests the store cannot carry out", () => {
  it("answers Corrupt when a stored event's JSON no longer parses, naming no data", () =>
    run((path) =>
      Effect.gen(function* () {
        yield* writtenStore(path)
        const raw = new DatabaseSync(path)
        raw.exec('UPDATE events SET data = \'{"cardNo": "4111\' WHERE global_position = 2')
        raw.close()
        const error = yield* Effect.flip(
          Effect.scoped(Effect.flatMap(makeSqliteEventStore(path), (store) => store.readStream("s"))),
        )
        expect(error).toMatchObject({ _tag: "StoreError", reason: "Corrupt" })
        expect(error.detail).not.toContain("4111")
        // Named by its place, for an auditor to find the row among millions.
        expect(error.detail).toBe("reading s: the stored JSON of s v2 at global position 2 is damaged")
      }),
    ))

  it("carries a damaged event's place as data, for a reader to report it and read on past it", () =>
    run((path) =>
      Effect.gen(function* () {
        const { records: written } = yield* writtenStore(path)
        const raw = new DatabaseSync(path)
        raw.exec("UPDATE events SET data = '{\"n\": ' WHERE global_position = 2")
        raw.exec("UPDATE events SET metadata = '{' WHERE global_position = 3")
        raw.close()
        const store = yield* makeSqliteEventStore(path)
        const data = yield* Effect.flip(store.readAll({ after: logStart, maxCount: 10 }))
        expect(data.damagedEvent).toEqual({
          id: written[1]!.id,
          streamId: "s",
          type: written[1]!.type,
          schemaVersion: written[1]!.schemaVersion,
          streamVersion: 2,
          globalPosition: 2n,
          recordedAt: written[1]!.metadata.recordedAt,
          why: "its stored data is not JSON",
        })
        const metadata = yield* Effect.flip(store.readAll({ after: 2n, maxCount: 10 }))
        expect(metadata.damagedEvent).toMatchObject({ streamVersion: 3, why: "its stored metadata is not JSON" })
        // The read of the stream, whose events are not the log's, names the same row.
        const stream = yield* Effect.flip(store.readStream("s"))
        expect(stream.damagedEvent).toMatchObject({ globalPosition: 2n })
      }),
    ))

  it("reads an event whose JSON no longer parses as its place when its stream is not read whole: it parses nothing else", () =>
    run((path) =>
      Effect.gen(function* () {
        yield* writtenStore(path)
        const raw = new DatabaseSync(path)
        raw.exec("UPDATE events SET data = '{\"n\": ', metadata = '{' WHERE global_position = 2")
        raw.close()
        const store = yield* makeSqliteEventStore(path)
        const places = yield* store.readAll({ after: logStart, maxCount: 10, wholeEventsOf: (id) => id !== "s" })
        expect(places.map((e) => [e.streamVersion, e.data, e.metadata])).toEqual([
          [1, undefined, { recordedAt: places[0]!.metadata.recordedAt }],
          [2, undefined, { recordedAt: places[0]!.metadata.recordedAt }],
          [3, undefined, { recordedAt: places[0]!.metadata.recordedAt }],
        ])
        const whole = yield* Effect.flip(
          store.readAll({ after: logStart, maxCount: 10, wholeEventsOf: (id) => id === "s" }),
        )
        expect(whole).toMatchObject({ _tag: "StoreError", reason: "Corrupt" })
      }),
    ))

  it("refuses data with no JSON form, and a page of no events, with InvalidRequest", () =>
    run((path) =>
      Effect.gen(function* () {
        const store = yield* makeSqliteEventStore(path)
        const bigint = yield* Effect.flip(
          store.append("s", [{ type: "Odd", schemaVersion: 1, data: { amountFils: 10n } }], "no_stream"),
        )
        expect(bigint).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
        expect((bigint as StoreError).detail).toContain("Odd")
        const nothing = yield* Effect.flip(
          store.append("s", [{ type: "Odd", schemaVersion: 1, data: undefined }], "any"),
        )
        expect(nothing).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
        const emptyPage = yield* Effect.flip(store.readAll({ after: logStart, maxCount: 0 }))
        expect(emptyPage).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
        expect(yield* store.readStream("s")).toEqual([])
      }),
    ))
})

describe("a sync of the log that fails (synchronous full-offloaded)", () => {
  /** Syncs that fail as a disk's `fdatasync` does on an I/O error. */
  const failingSyncs = (): LogSync => ({
    startedSyncs: () => 0,
    afterSync: (_sync, done) => done(new Error("EIO: i/o error, fdatasync")),
    close: () => {},
  })

  it("fails the appends it would have made durable, and every later one, with Unavailable naming the file", () =>
    run((path) =>
      Effect.gen(function* () {
        const store = yield* openSqliteEventStore(path, {}, failingSyncs)
        for (const streamId of ["first", "second"]) {
          const error = yield* Effect.flip(store.append(streamId, [happened], "no_stream"))
          expect(error).toMatchObject({ _tag: "StoreError", reason: "Unavailable" })
          expect((error as StoreError).detail).toContain(`syncing the write-ahead log of ${path} failed`)
        }
        // What was committed but never made durable is no reader's either.
        const read = yield* Effect.flip(store.readAll({ after: logStart, maxCount: 10 }))
        expect(read).toMatchObject({ _tag: "StoreError", reason: "Unavailable" })
      }),
    ))
})

describe("a sync of the log that fails once (synchronous full-offloaded)", () => {
  /** The first sync fails as a disk's `fdatasync` does on an I/O error; every later one succeeds. */
  const failingOnce = (): LogSync => {
    let syncs = 0
    return {
      startedSyncs: () => syncs,
      afterSync: (_sync, done) => done(++syncs === 1 ? new Error("EIO: i/o error, fdatasync") : undefined),
      close: () => {},
    }
  }

  it("commits nothing after it: a later append is refused, not written and then answered failed", () =>
    run((path) =>
      Effect.gen(function* () {
        yield* Effect.scoped(
          Effect.gen(function* () {
            const store = yield* openSqliteEventStore(path, {}, failingOnce)
            for (const streamId of ["first", "second"])
              expect(yield* Effect.flip(store.append(streamId, [happened], "no_stream"))).toMatchObject({
                reason: "Unavailable",
              })
          }),
        )
        // Reopened: the append made before the failed sync may be there; the one refused after it is not.
        const reopened = yield* makeSqliteEventStore(path)
        expect(yield* reopened.readStream("second")).toEqual([])
      }),
    ))
})

describe("the synchronous option", () => {
  it("is refused at open when the level is unknown, naming the option", () =>
    run((path) =>
      Effect.gen(function* () {
        const error = yield* openingFails(path, { synchronous: "off" as never })
        expect(error).toMatchObject({ reason: "InvalidRequest" })
        expect(error.detail).toContain('synchronous is "off", not one of full-offloaded, full, normal')
      }),
    ))
})
