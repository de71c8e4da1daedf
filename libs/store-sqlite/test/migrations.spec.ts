import { DatabaseSync } from "node:sqlite"
import { StoreError } from "@mizan/eventsourcing"
import { expectChained, readWholeLog } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeSqliteEventStore } from "../src/index.ts"
import { applicationId, type Migration, migrate, migrations, schemaVersionCurrent } from "../src/schema.ts"
import { tempDatabasePath } from "./support/stores.ts"

/** Runs `body` on a raw connection to a new, empty file. */
const withEmptyFile = (body: (db: DatabaseSync, path: string) => void) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.map(tempDatabasePath, (path) => {
        const db = new DatabaseSync(path)
        try {
          body(db, path)
        } finally {
          db.close()
        }
      }),
    ),
  )

const pragma = (db: DatabaseSync, name: string) => Number(db.prepare(`PRAGMA ${name}`).get()?.[name])
const tables = (db: DatabaseSync) =>
  db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name)

const withExtraTable: ReadonlyArray<Migration> = [
  ...migrations,
  { version: schemaVersionCurrent + 1, description: "an extra table", sql: "CREATE TABLE extra (x INTEGER) STRICT" },
]

describe("schema migrations", () => {
  it("apply every migration to an empty file, marking it as a Mizan event store at the current version", () =>
    withEmptyFile((db, path) => {
      expect(migrate(db, path)).toEqual({ from: 0, applied: migrations.map((m) => m.version) })
      expect(pragma(db, "user_version")).toBe(schemaVersionCurrent)
      expect(pragma(db, "application_id")).toBe(applicationId)
      expect(tables(db)).toEqual(["checkpoints", "events", "signed_heads", "subject_keys"])
    }))

  it("are a no-op on a file already at the current version, leaving its schema and data alone", () =>
    withEmptyFile((db, path) => {
      migrate(db, path)
      db.exec("INSERT INTO checkpoints (name, position) VALUES ('reader', 7)")
      const schemaBefore = db.prepare("SELECT sql FROM sqlite_schema ORDER BY name").all()
      expect(migrate(db, path)).toEqual({ from: schemaVersionCurrent, applied: [] })
      expect(db.prepare("SELECT sql FROM sqlite_schema ORDER BY name").all()).toEqual(schemaBefore)
      expect(db.prepare("SELECT position FROM checkpoints").all()).toEqual([{ position: 7 }])
    }))

  it("apply only the migrations a file lacks, in order", () =>
    withEmptyFile((db, path) => {
      migrate(db, path)
      expect(migrate(db, path, withExtraTable)).toEqual({
        from: schemaVersionCurrent,
        applied: [schemaVersionCurrent + 1],
      })
      expect(pragma(db, "user_version")).toBe(schemaVersionCurrent + 1)
      expect(tables(db)).toContain("extra")
    }))

  it("roll a failing migration back whole, leaving the file at the version before it", () =>
    withEmptyFile((db, path) => {
      migrate(db, path)
      const broken: ReadonlyArray<Migration> = [
        ...migrations,
        { version: schemaVersionCurrent + 1, description: "half good", sql: "CREATE TABLE extra (x); NOT SQL AT ALL" },
      ]
      expect(() => migrate(db, path, broken)).toThrow(StoreError)
      expect(pragma(db, "user_version")).toBe(schemaVersionCurrent)
      expect(tables(db)).not.toContain("extra")
      expect(db.isTransaction).toBe(false)
    }))

  it("chain the events of a file written before chain hashes, stream by stream, so that it verifies", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const path = yield* tempDatabasePath
          const db = new DatabaseSync(path)
          migrate(db, path, migrations.slice(0, 1))
          const insert = db.prepare(
            "INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          )
          // Two streams interleaved in the log, one event with metadata, as schema version 1 wrote them.
          insert.run("e1", "b", 1, "Made", 1, '{"z":1,"a":"x"}', null, 1_767_225_600_000)
          insert.run("e2", "a", 1, "Made", 1, "{}", '{"correlationId":"c"}', 1_767_225_600_001)
          insert.run("e3", "b", 2, "Changed", 2, '{"list":[1,2]}', null, 1_767_225_600_002)
          db.close()
          const store = yield* makeSqliteEventStore(path)
          const log = yield* readWholeLog(store)
          expect(log.map((e) => e.id)).toEqual(["e1", "e2", "e3"])
          expectChained(log)
          // New appends continue the migrated chains.
          yield* store.append("b", [{ type: "Changed", schemaVersion: 2, data: { list: [] } }], 2)
          expectChained(yield* readWholeLog(store))
        }),
      ),
    ))
})
