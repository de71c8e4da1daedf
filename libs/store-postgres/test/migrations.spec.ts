import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { expectChained, readWholeLog } from "@mizan/eventsourcing/testing"
import { Effect, Exit } from "effect"
import { makePostgresEventStore, migrations, schemaVersion } from "../src/index.ts"
import { tablesIn } from "../src/tables.ts"
import { freshSchema, openStore, postgresUrl, rawClient, sql } from "./support.ts"

const appliedVersions = (schema: string) =>
  Effect.gen(function* () {
    const client = yield* rawClient
    const rows = yield* sql<{ version: number }>(
      client,
      `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
    )
    return rows.map((row) => row.version)
  })

const everyVersion = migrations.map((m) => m.version)

describe("schema migrations", () => {
  it("numbers its migrations 1..n without gaps", () => {
    expect(everyVersion).toEqual(everyVersion.map((_, i) => i + 1))
    expect(schemaVersion).toBe(everyVersion.length)
  })

  it.effect("creates a fresh schema at the latest version, each migration recorded once", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      yield* openStore(schema)
      expect(yield* appliedVersions(schema)).toEqual(everyVersion)
    }),
  )

  it.effect("applies nothing twice when opened again, and keeps what was written", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      const first = yield* openStore(schema)
      yield* first.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream")
      const second = yield* openStore(schema)
      expect(yield* appliedVersions(schema)).toEqual(everyVersion)
      expect((yield* second.readStream("s")).length).toBe(1)
    }),
  )

  it.effect(
    "lets stores that open together on an empty schema, each with its own pool as separate processes have, all open it and migrate it once",
    () =>
      Effect.gen(function* () {
        const schema = freshSchema()
        const opened = yield* Effect.all(
          Array.from({ length: 6 }, () => Effect.exit(openStore(schema))),
          { concurrency: "unbounded" },
        )
        expect(opened.filter(Exit.isFailure)).toEqual([])
        expect(yield* appliedVersions(schema)).toEqual(everyVersion)
      }),
  )

  it.effect("refuses to open a schema migrated by newer code with a NewerSchema error", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      yield* openStore(schema)
      const client = yield* rawClient
      yield* sql(
        client,
        `INSERT INTO "${schema}".schema_migrations (version, description) VALUES ($1, 'from the future')`,
        [schemaVersion + 1],
      )
      const error = yield* Effect.flip(openStore(schema))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "NewerSchema" })
      expect(error.message).toContain(`at version ${schemaVersion + 1}`)
      expect(yield* appliedVersions(schema)).toEqual([...everyVersion, schemaVersion + 1])
    }),
  )

  it.effect("opens an up-to-date schema as a user who may only use its tables, and creates nothing", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      yield* openStore(schema)
      const client = yield* rawClient
      const role = `app_${schema}`
      const password = randomBytes(9).toString("hex")
      yield* sql(client, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`)
      yield* sql(client, `GRANT USAGE ON SCHEMA "${schema}" TO ${role}`)
      yield* sql(client, `GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`)
      const url = new URL(postgresUrl())
      url.username = role
      url.password = password

      const store = yield* makePostgresEventStore(url.toString(), { schema })
      const { records } = yield* store.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream")
      expect(yield* store.readStream("s")).toEqual(records)
      // The same user cannot create a schema: the open above did no DDL.
      const refused = yield* Effect.flip(makePostgresEventStore(url.toString(), { schema: freshSchema() }))
      expect(refused.message).toContain("permission denied")
    }),
  )

  it.effect("refuses a schema name that would need quoting", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(openStore('x"; DROP TABLE y; --'))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
    }),
  )

  it.effect("opens for reading only a schema that holds a Mizan store, and creates none", () =>
    Effect.gen(function* () {
      const typo = freshSchema()
      const refused = yield* Effect.flip(openStore(typo, { mustExist: true }))
      expect(refused).toMatchObject({ reason: "Unavailable" })
      expect(refused.detail).toBe(
        `no Mizan store in schema "${typo}": the schema does not exist or holds no Mizan tables, and is not created to be read (check the store setting)`,
      )
      const client = yield* rawClient
      const schemas = yield* sql(client, "SELECT 1 FROM information_schema.schemata WHERE schema_name = $1", [typo])
      expect(schemas).toEqual([])

      const written = freshSchema()
      const gateway = yield* openStore(written)
      yield* gateway.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream")
      const reader = yield* openStore(written, { mustExist: true })
      expect((yield* reader.readStream("s")).length).toBe(1)
    }),
  )

  it.effect("refuses to read, without migrating it, a schema an older version left", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      yield* openStore(schema)
      const client = yield* rawClient
      yield* sql(client, `DELETE FROM "${schema}".schema_migrations WHERE version = $1`, [schemaVersion])
      const refused = yield* Effect.flip(openStore(schema, { mustExist: true }))
      expect(refused.detail).toContain(`is at version ${schemaVersion - 1}, older than this code's ${schemaVersion}`)
      expect(yield* appliedVersions(schema)).toEqual(everyVersion.slice(0, -1))
    }),
  )

  it.effect("chains the events of a store written at version 1, stream by stream, so that it verifies", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      const tables = yield* tablesIn(schema)
      const client = yield* rawClient
      // The store as version 1 of this code left it: its tables, its migration row, events without chain hashes.
      yield* sql(client, `CREATE SCHEMA "${schema}"`)
      yield* sql(
        client,
        `CREATE TABLE ${tables.migrations} (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      )
      yield* sql(client, migrations[0]!.sql(tables))
      yield* sql(client, `INSERT INTO ${tables.migrations} (version, description) VALUES (1, 'v1')`)
      const insert = `INSERT INTO ${tables.events} (global_position, stream_id, stream_version, event_id, event_type, schema_version, data, correlation_id, causation_id, recorded_at_ms) VALUES ($1, $2, $3, $4, 'Made', 1, $5::json, $6, NULL, $7)`
      yield* sql(client, insert, [65_537, "b", 1, "e1", '{"z":1,"a":"x"}', null, 1_767_225_600_000])
      yield* sql(client, insert, [131_073, "a", 1, "e2", "{}", "c", 1_767_225_600_001])
      yield* sql(client, insert, [196_609, "b", 2, "e3", '{"list":[1,2]}', null, 1_767_225_600_002])
      yield* sql(client, `INSERT INTO ${tables.streams} VALUES ('a', 1), ('b', 2)`)
      const store = yield* openStore(schema)
      expect(yield* appliedVersions(schema)).toEqual(everyVersion)
      const log = yield* readWholeLog(store)
      expect(log.map((e) => e.id)).toEqual(["e1", "e2", "e3"])
      expectChained(log)
      yield* store.append("b", [{ type: "Made", schemaVersion: 1, data: {} }], 2)
      expectChained(yield* readWholeLog(store))
    }),
  )
})
