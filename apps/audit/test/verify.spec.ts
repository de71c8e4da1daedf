/**
 * `verify` on real SQLite files: an untouched store verifies; one byte of
 * one event's data, its recorded time, a whole stream or the log's tail
 * changed behind the store's back fails it, naming the place; a store from
 * the schema before the chain verifies once migrated.
 */
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { EventStore, signLogHead } from "@mizan/eventsourcing"
import { generateHistory } from "@mizan/histories"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { exitCodes } from "../src/index.ts"
import { chainedHistory, eventsAfterLastHead, signWithServiceKey, writeServicePublicKey } from "./support/chained.ts"
import { cli } from "./support/cli.ts"
import { tempFolder, withSqliteStore } from "./support/stores.ts"

const folder = tempFolder()
afterAll(() => folder.cleanup())
const publicKey = writeServicePublicKey(folder.dir)

let serial = 0
/** A new SQLite file holding a chained history, with its heads. */
const chainedStore = async () => {
  const path = join(folder.dir, `store-${++serial}.db`)
  const { heads } = await withSqliteStore(path, chainedHistory(41, 150))
  return { path, heads }
}

const verifyStore = (path: string) => cli(["verify", "--store", `sqlite:${path}`, "--service-public-key", publicKey])

/** Runs `body` on a raw connection to the file, behind the store's back. */
const tamper = (path: string, body: (db: DatabaseSync) => void) => {
  const db = new DatabaseSync(path)
  try {
    body(db)
  } finally {
    db.close()
  }
}

const eventAt = (db: DatabaseSync, position: number) =>
  db.prepare("SELECT stream_id, stream_version, data FROM events WHERE global_position = ?").get(position) as {
    stream_id: string
    stream_version: number
    data: string
  }

describe("verify", () => {
  it("passes an untouched store with 0, saying how many events no head covers yet", async () => {
    const { path } = await chainedStore()
    const run = await verifyStore(path)
    expect([run.code, run.stderr]).toEqual([exitCodes.ok, ""])
    expect(run.stdout).toContain("every link and every head holds")
    expect(run.stdout).toContain(`${eventsAfterLastHead} events after the last signed head`)
  })

  it("fails with 1 when one byte of one event's data changed, naming its stream, version and position", async () => {
    const { path } = await chainedStore()
    let named = ""
    tamper(path, (db) => {
      const { stream_id, stream_version, data } = eventAt(db, 37)
      const digit = data.search(/[0-9]/)
      const changed = `${data.slice(0, digit)}${data[digit] === "9" ? "8" : "9"}${data.slice(digit + 1)}`
      db.prepare("UPDATE events SET data = ? WHERE global_position = 37").run(changed)
      named = `event ${stream_id} v${stream_version} at global position 37`
    })
    const run = await verifyStore(path)
    expect(run.code).toBe(exitCodes.broken)
    expect(run.stdout).toContain(`the first difference: ${named}`)
    expect(run.stdout).toContain("changed after it was recorded")
    // One changed event is one finding: the links after it and the heads still hold.
    expect(run.stdout.match(/^ {2}/gm)).toHaveLength(1)
  })

  it("fails when an event's recorded time changed by a millisecond", async () => {
    const { path } = await chainedStore()
    tamper(path, (db) => db.exec("UPDATE events SET recorded_at = recorded_at + 1 WHERE global_position = 5"))
    const run = await verifyStore(path)
    expect(run.code).toBe(exitCodes.broken)
    expect(run.stdout).toMatch(/the first difference: event \S+ v\d+ at global position 5\n/)
  })

  it("fails when two events of one stream swapped places, saying they moved, not that they were removed", async () => {
    const { path } = await chainedStore()
    const swapped = { stream: "", first: 0, second: 0 }
    tamper(path, (db) => {
      Object.assign(
        swapped,
        db
          .prepare(
            "SELECT a.stream_id AS stream, a.global_position AS first, b.global_position AS second FROM events a JOIN events b ON b.stream_id = a.stream_id AND b.stream_version = 2 WHERE a.stream_version = 1 LIMIT 1",
          )
          .get(),
      )
      const move = db.prepare("UPDATE events SET global_position = ? WHERE global_position = ?")
      move.run(-1, swapped.first)
      move.run(swapped.first, swapped.second)
      move.run(swapped.second, -1)
    })
    const run = await verifyStore(path)
    expect(run.code).toBe(exitCodes.broken)
    const lines = run.stdout.split("\n").filter((line) => line.startsWith(`  event ${swapped.stream} `))
    expect(lines).toEqual([
      expect.stringContaining(
        "the stream goes from version 0 to 2: the events between them are not here (removed, or moved later in the log)",
      ),
      expect.stringContaining("the stream goes back from version 2 to 1: its events were moved or repeated"),
    ])
  })

  it("does not verify a log whose signed heads are gone, with 1: nothing anchors its chain", async () => {
    const { path } = await chainedStore()
    tamper(path, (db) => db.exec("DELETE FROM signed_heads"))
    const run = await verifyStore(path)
    expect([run.code, run.stdout]).toEqual([
      exitCodes.broken,
      expect.stringMatching(
        /^NOT VERIFIED: read [0-9,]+ events in [0-9,]+ streams, 0 signed heads: every link holds, but no signed head covers any event, so nothing anchors the chain: an edit that rewrote their chain hashes, or a cut, would not show\n$/,
      ),
    ])
    const json = await cli(["verify", "--json", "--store", `sqlite:${path}`, "--service-public-key", publicKey])
    expect([json.code, JSON.parse(json.stdout)]).toEqual([
      exitCodes.broken,
      expect.objectContaining({ ok: false, headsChecked: 0, findings: [] }),
    ])
  })

  it("verifies an empty store with 0: no event wants a head", async () => {
    const path = join(folder.dir, `store-${++serial}.db`)
    await withSqliteStore(path, Effect.void)
    const run = await verifyStore(path)
    expect([run.code, run.stdout]).toEqual([
      exitCodes.ok,
      "verified 0 events in 0 streams, 0 signed heads: every link and every head holds\n",
    ])
  })

  it("fails when a whole stream was deleted, naming the first signed head after it", async () => {
    const { path, heads } = await chainedStore()
    tamper(path, (db) => {
      const { stream_id } = eventAt(db, 1)
      db.prepare("DELETE FROM events WHERE stream_id = ?").run(stream_id)
    })
    const run = await verifyStore(path)
    expect(run.code).toBe(exitCodes.broken)
    expect(run.stdout).toContain(`the first difference: signed head of ${heads[0].count} events`)
    expect(run.stdout).toContain("events before it were removed, added or reordered")
    // The second head is checked from the first one's signed digest: the deletion is reported once.
    expect(run.stdout.match(/^ {2}/gm)).toHaveLength(1)
  })

  it("fails when the log's tail was cut off before the last signed head, naming that head", async () => {
    const { path, heads } = await chainedStore()
    tamper(path, (db) => db.prepare("DELETE FROM events WHERE global_position > ?").run(heads[1].count - 1))
    const run = await verifyStore(path)
    expect(run.code).toBe(exitCodes.broken)
    expect(run.stdout).toContain(`the first difference: signed head of ${heads[1].count} events`)
    expect(run.stdout).toContain(`the log holds only ${heads[1].count - 1}`)
  })

  it("fails when a head was not signed with the service's key", async () => {
    const { path, heads } = await chainedStore()
    tamper(path, (db) =>
      db.prepare("UPDATE signed_heads SET signed_at = signed_at + 1 WHERE count = ?").run(heads[0].count),
    )
    const run = await verifyStore(path)
    expect(run.code).toBe(exitCodes.broken)
    expect(run.stdout).toContain(`signed head of ${heads[0].count} events`)
    expect(run.stdout).toContain("its signature does not verify")
  })

  it("passes a store written before the chain, once opened (and so migrated) and signed", async () => {
    const path = join(folder.dir, "before-the-chain.db")
    await withSqliteStore(path, generateHistory({ seed: 43, events: 150 }))
    // Back to schema version 1, as a store written before the chain holds it.
    tamper(path, (db) => {
      db.exec(
        "DROP TABLE subject_keys; DROP TABLE signed_heads; ALTER TABLE events DROP COLUMN chain_hash; PRAGMA user_version = 1",
      )
    })
    await withSqliteStore(
      path,
      Effect.flatMap(EventStore, () => signLogHead(signWithServiceKey)),
    )
    const run = await verifyStore(path)
    expect([run.code, run.stdout]).toEqual([exitCodes.ok, expect.stringContaining("every link and every head holds")])
  })

  it("refuses to run without the service's public key, with 2", async () => {
    const { path } = await chainedStore()
    const run = await cli(["verify", "--store", `sqlite:${path}`, "--service-public-key", join(folder.dir, "none.pem")])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain("no service public key at")
  })

  it("refuses a service public key it cannot read, naming it, with 2", async () => {
    const { path } = await chainedStore()
    const run = await cli(["verify", "--store", `sqlite:${path}`, "--service-public-key", folder.dir])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr.split("\n")[0]).toBe(
      `mizan-audit: cannot read the service public key ${folder.dir} (--service-public-key): is a folder, not a file`,
    )
  })
})
