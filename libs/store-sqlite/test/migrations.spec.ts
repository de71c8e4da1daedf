import { DatabaseSync } from "node:sqlite"
import { StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
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
      expect(tables(db)).toEqual(["checkpoints", "events"])
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
})
