/**
 * A history moves from the embedded SQLite store to PostgreSQL and back
 * through export and import, and audits the same in each.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { generateHistory } from "@mizan/histories"
import { type EmbeddedServer, startEmbeddedPostgres, testServerSettings } from "@mizan/store-postgres/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exitCodes } from "../src/index.ts"
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
