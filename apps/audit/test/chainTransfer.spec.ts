/**
 * Export and import carry the tamper-evident log: every event's chain hash
 * and every signed head, checked on the way in.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { exitCodes } from "../src/index.ts"
import { chainedHistory, writeServicePublicKey } from "./support/chained.ts"
import { cli } from "./support/cli.ts"
import { tempFolder, withSqliteStore } from "./support/stores.ts"

const folder = tempFolder()
afterAll(() => folder.cleanup())
const key = writeServicePublicKey(folder.dir)

/** An export of a SQLite store holding a chained history with two signed heads. */
const exported = async (name: string) => {
  const source = join(folder.dir, `${name}.db`)
  await withSqliteStore(source, chainedHistory(53, 150))
  const file = join(folder.dir, `${name}.ndjson`)
  await cli(["export", "--out", file, "--store", `sqlite:${source}`])
  return file
}

const lines = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n")

describe("export and import of the chain", () => {
  it("writes each event's chain hash and each signed head after the event it ends at, and import keeps both, SQLite at any --in-flight", async () => {
    const file = await exported("round-trip")
    const all = lines(file)
    const headLines = all.flatMap((line, i) => (line.startsWith('{"signedHead"') ? [i] : []))
    expect(headLines).toHaveLength(2)
    for (const i of headLines) {
      const { signedHead } = JSON.parse(all[i]!) as { signedHead: { lastEventId: string } }
      expect((JSON.parse(all[i - 1]!) as { id: string }).id).toBe(signedHead.lastEventId)
    }
    expect(JSON.parse(all[0]!)).toHaveProperty("chainHash", expect.stringMatching(/^[0-9a-f]{64}$/))
    const target = join(folder.dir, "round-trip-target.db")
    // SQLite's group commit keeps the order appends are given in: 32 at once still digest as the heads signed.
    const imported = await cli(["import", file, "--in-flight", "32", "--store", `sqlite:${target}`])
    expect([imported.code, imported.stdout]).toEqual([exitCodes.ok, expect.stringContaining("and 2 signed heads")])
    expect((await cli(["verify", "--store", `sqlite:${target}`, "--service-public-key", key])).code).toBe(exitCodes.ok)
    expect((await cli(["export", "--store", `sqlite:${target}`])).stdout).toBe(readFileSync(file, "utf8"))
  })

  it("refuses, writing nothing, a file whose event changed after export, naming its line", async () => {
    const file = await exported("edited")
    const all = lines(file)
    const event = JSON.parse(all[20]!) as { data: Record<string, unknown> }
    all[20] = JSON.stringify({ ...event, data: { ...event.data, edited: true } })
    writeFileSync(file, `${all.join("\n")}\n`)
    const target = join(folder.dir, "edited-target.db")
    const run = await cli(["import", file, "--store", `sqlite:${target}`])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain("line 21:")
    expect(run.stderr).toContain("does not hash to the chain hash the file gives")
    expect(existsSync(target)).toBe(false)
  })

  it("refuses a file whose events before a signed head were removed, naming the head's line", async () => {
    const file = await exported("shortened")
    const all = lines(file)
    // The first event's stream, gone whole: every link left holds, but the first head no longer digests the file.
    const { streamId } = JSON.parse(all[0]!) as { streamId: string }
    const kept = all.filter((line) => !line.includes(`"streamId":"${streamId}"`))
    const end = kept.length - 1
    kept[end] = JSON.stringify({ end: { events: kept.filter((line) => line.includes('"streamId"')).length } })
    writeFileSync(file, `${kept.join("\n")}\n`)
    const run = await cli(["import", file, "--store", `sqlite:${join(folder.dir, "shortened-target.db")}`])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toMatch(/line \d+: the signed head of \d+ events stands after event \d+/)
  })

  it("refuses signed heads into a store that already holds events, saying so at the first head before any event is checked, writing nothing", async () => {
    const file = await exported("twice")
    const target = join(folder.dir, "twice-target.db")
    expect((await cli(["import", file, "--store", `sqlite:${target}`])).code).toBe(exitCodes.ok)
    const before = (await cli(["export", "--store", `sqlite:${target}`])).stdout
    // The same file again: its first event, which the store holds, would be refused as not following on.
    const again = await cli(["import", file, "--store", `sqlite:${target}`])
    const firstHead = lines(file).findIndex((line) => line.startsWith('{"signedHead"')) + 1
    expect([again.code, again.stderr]).toEqual([
      exitCodes.failed,
      `mizan-audit: line ${firstHead}: the file carries signed heads, which digest a log from its first event: it goes into an empty store only, and sqlite:${target} holds events\n`,
    ])
    expect((await cli(["export", "--store", `sqlite:${target}`])).stdout).toBe(before)
  })
})
