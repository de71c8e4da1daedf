/**
 * A history moves from the embedded SQLite store to PostgreSQL and back
 * through export and import, and audits the same in each.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { generateHistory } from "@mizan/histories"
import { type EmbeddedServer, startEmbeddedPostgres, testServerSettings } from "@mizan/store-postgres/testing"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exitCodes } from "../src/index.ts"
import { chainedHistory, writeServicePublicKey } from "./support/chained.ts"
import { cli } from "./support/cli.ts"
import { tempFolder, withSqliteStore } from "./support/stores.ts"

const folder = tempFolder()
let server: EmbeddedServer

beforeAll(async () => {
  server = await startEmbeddedPostgres({ settings: testServerSettings })
})

afterAll(async () => {
  await server?.stop()
  folder.cleanup()
})

/** The store setting of a schema of its own on the test server. */
const postgres = (schema: string) => `${server.connectionString}?schema=${schema}`

/** An export's event lines without their global positions (each store numbers its own log). */
const withoutPositions = (ndjson: string) =>
  ndjson
    .trimEnd()
    .split("\n")
    .map((line) => {
      const { globalPosition: _, ...rest } = JSON.parse(line) as Record<string, unknown>
      return rest
    })

const replayJson = async (store: string) => JSON.parse((await cli(["replay", "--json", "--store", store])).stdout)

describe("a PostgreSQL store that is not there", () => {
  it("is refused by replay, show, at and export in one line with 2, and never created by them", async () => {
    const typo = postgres("mizn")
    for (const argv of [["replay"], ["show", "acquiring-M1-x"], ["at", "0"], ["export"]]) {
      const run = await cli([...argv, "--store", typo])
      expect(run.code, argv.join(" ")).toBe(exitCodes.failed)
      expect(run.stderr).toContain('no Mizan store in schema "mizn"')
    }
  })
})

describe("migrate", () => {
  it("creates a store in a schema where none is, and then every reading command opens it", async () => {
    const store = postgres("migrated")
    expect((await cli(["replay", "--store", store])).code).toBe(exitCodes.failed)
    const migrated = await cli(["migrate", "--store", store])
    expect([migrated.code, migrated.stdout]).toEqual([exitCodes.ok, expect.stringContaining("holds a Mizan store")])
    expect((await cli(["replay", "--json", "--store", store])).code).toBe(exitCodes.ok)
  })
})

describe("export and import between SQLite and PostgreSQL", () => {
  it("carries a history from SQLite into PostgreSQL and back, every event, id and recorded time kept", async () => {
    const source = join(folder.dir, "source.db")
    await withSqliteStore(source, generateHistory({ seed: 23, events: 500 }))
    const firstExport = join(folder.dir, "source.ndjson")
    expect((await cli(["export", "--out", firstExport, "--store", `sqlite:${source}`])).code).toBe(exitCodes.ok)

    // --in-flight 1: PostgreSQL then keeps the file's global order exactly (see the README).
    const intoPostgres = await cli(["import", firstExport, "--in-flight", "1", "--store", postgres("round_trip")])
    expect(intoPostgres.code).toBe(exitCodes.ok)
    const fromPostgres = await cli(["export", "--store", postgres("round_trip")])
    const original = readFileSync(firstExport, "utf8")
    expect(withoutPositions(fromPostgres.stdout)).toEqual(withoutPositions(original))

    const pgReport = await replayJson(postgres("round_trip"))
    const sqliteReport = await replayJson(`sqlite:${source}`)
    expect(pgReport).toMatchObject({ ok: true, counts: sqliteReport.counts, moneyAed: sqliteReport.moneyAed })

    const secondExport = join(folder.dir, "postgres.ndjson")
    expect((await cli(["export", "--out", secondExport, "--store", postgres("round_trip")])).code).toBe(exitCodes.ok)
    const back = join(folder.dir, "back.db")
    expect((await cli(["import", secondExport, "--store", `sqlite:${back}`])).code).toBe(exitCodes.ok)
    // SQLite numbers its log 1..n again, so the history is back byte for byte.
    expect((await cli(["export", "--store", `sqlite:${back}`])).stdout).toBe(original)
  })

  it("keeps every stream's own order when appends to different streams are written concurrently", async () => {
    const source = join(folder.dir, "concurrent.db")
    await withSqliteStore(source, generateHistory({ seed: 29, events: 500 }))
    const file = join(folder.dir, "concurrent.ndjson")
    await cli(["export", "--out", file, "--store", `sqlite:${source}`])
    expect((await cli(["import", file, "--in-flight", "16", "--store", postgres("concurrent")])).code).toBe(
      exitCodes.ok,
    )
    const byStream = (lines: ReadonlyArray<Record<string, unknown>>) =>
      Object.groupBy(lines, (line) => String(line.streamId ?? "end"))
    expect(byStream(withoutPositions((await cli(["export", "--store", postgres("concurrent")])).stdout))).toEqual(
      byStream(withoutPositions(readFileSync(file, "utf8"))),
    )
    expect(await replayJson(postgres("concurrent"))).toMatchObject({ ok: true })
  })
})

/** The rows of one statement on the test server, behind the audit's back. */
const onServer = async (text: string, values: ReadonlyArray<unknown> = []) => {
  const client = new pg.Client({ connectionString: server.connectionString })
  await client.connect()
  try {
    return (await client.query(text, [...values])).rows
  } finally {
    await client.end()
  }
}

/** Whether the test server holds a schema of that name. */
const schemaIsThere = async (schema: string) =>
  (await onServer("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema])).length === 1

/** The tables a schema holds, by name. */
const tablesOf = async (schema: string) =>
  (await onServer("SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", [schema])).map(
    (row) => row.tablename as string,
  )

describe("a refused import into PostgreSQL", () => {
  /** An export of a small history, cut short: import refuses it after opening (and so creating) its target. */
  const cutShort = async (name: string) => {
    const source = join(folder.dir, `${name}.db`)
    await withSqliteStore(source, generateHistory({ seed: 31, events: 60 }))
    const file = join(folder.dir, `${name}.ndjson`)
    await cli(["export", "--out", file, "--store", `sqlite:${source}`])
    writeFileSync(file, `${readFileSync(file, "utf8").split("\n").slice(0, 20).join("\n")}\n`)
    return file
  }

  it("drops the schema it created, as it removes a new SQLite file: left behind, an empty store would audit clean", async () => {
    const file = await cutShort("refused-new")
    const run = await cli(["import", file, "--store", postgres("refused_new")])
    expect([run.code, run.stderr]).toEqual([exitCodes.failed, expect.stringContaining("cut short")])
    expect(await schemaIsThere("refused_new")).toBe(false)
  })

  it("takes its tables out of a schema that was there without a store, leaving the schema as it found it", async () => {
    const file = await cutShort("refused-bare")
    await onServer("CREATE SCHEMA refused_bare; CREATE SCHEMA refused_shared")
    await onServer("CREATE TABLE refused_shared.notes (line text); INSERT INTO refused_shared.notes VALUES ('kept')")
    for (const schema of ["refused_bare", "refused_shared"]) {
      const run = await cli(["import", file, "--store", postgres(schema)])
      expect([run.code, run.stderr]).toEqual([exitCodes.failed, expect.stringContaining("cut short")])
      expect(await schemaIsThere(schema)).toBe(true)
    }
    expect(await tablesOf("refused_bare")).toEqual([])
    expect(await tablesOf("refused_shared")).toEqual(["notes"])
    expect(await onServer("SELECT line FROM refused_shared.notes")).toEqual([{ line: "kept" }])
    // Not taken for a store: no Mizan store in it, as before the import.
    expect((await cli(["replay", "--store", postgres("refused_bare")])).stderr).toContain("no Mizan store in schema")
  })

  it("leaves a schema that was there before, with its store", async () => {
    const file = await cutShort("refused-there")
    expect((await cli(["migrate", "--store", postgres("refused_there")])).code).toBe(exitCodes.ok)
    expect((await cli(["import", file, "--store", postgres("refused_there")])).code).toBe(exitCodes.failed)
    expect(await replayJson(postgres("refused_there"))).toMatchObject({ ok: true, events: 0 })
  })
})

describe("the tamper-evident log in PostgreSQL", () => {
  it("arrives from SQLite with its chain and signed heads, verifies, and fails verify naming the event whose data changed by one byte", async () => {
    const source = join(folder.dir, "chained.db")
    await withSqliteStore(source, chainedHistory(47, 200))
    const file = join(folder.dir, "chained.ndjson")
    expect((await cli(["export", "--out", file, "--store", `sqlite:${source}`])).code).toBe(exitCodes.ok)
    const store = postgres("chained")
    const imported = await cli(["import", file, "--store", store])
    expect([imported.code, imported.stdout]).toEqual([exitCodes.ok, expect.stringContaining("and 2 signed heads")])
    const key = writeServicePublicKey(folder.dir)
    const verify = () => cli(["verify", "--store", store, "--service-public-key", key])
    expect((await verify()).code).toBe(exitCodes.ok)

    const client = new pg.Client({ connectionString: server.connectionString })
    await client.connect()
    let named: string
    try {
      const { rows } = await client.query<{
        global_position: string
        stream_id: string
        stream_version: number
        data: string
      }>(
        "SELECT global_position, stream_id, stream_version, data::text AS data FROM chained.events ORDER BY global_position OFFSET 36 LIMIT 1",
      )
      const row = rows[0]!
      const digit = row.data.search(/[0-9]/)
      const changed = `${row.data.slice(0, digit)}${row.data[digit] === "9" ? "8" : "9"}${row.data.slice(digit + 1)}`
      await client.query("UPDATE chained.events SET data = $1::json WHERE global_position = $2", [
        changed,
        row.global_position,
      ])
      named = `event ${row.stream_id} v${row.stream_version} at global position ${row.global_position}`
    } finally {
      await client.end()
    }
    const run = await verify()
    expect(run.code).toBe(exitCodes.broken)
    expect(run.stdout).toContain(`the first difference: ${named}`)
  })
})
