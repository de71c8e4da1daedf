/**
 * The command line, run in-process against SQLite files: exit statuses,
 * reports, timelines, time travel, and the clear errors for a missing
 * store, a newer schema and damaged export files.
 */

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Writable } from "node:stream"
import { generateHistory } from "@mizan/histories"
import { schemaVersionCurrent } from "@mizan/store-sqlite"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { replayPageSizeOf } from "../src/cli/cli.ts"
import {
  exitCodes,
  logPageSizeEventsDefault,
  parseTime,
  replayPageSizeEventsDefault,
  runCli,
  usage,
} from "../src/index.ts"
import { cli } from "./support/cli.ts"
import { closeOrderTwice } from "./support/damage.ts"
import { tempFolder, withSqliteStore } from "./support/stores.ts"

const folder = tempFolder()
const historyPath = join(folder.dir, "history.db")
const exportPath = join(folder.dir, "history.ndjson")
const sqlite = (path: string) => `sqlite:${path}`
let exportLines: Array<string>

/** A stream of the history with at least `events` events, and its records. */
const streamWith = (events: number, prefix = "acquiring-") => {
  const line = exportLines.find((l) => {
    const event = JSON.parse(l) as { streamId?: string; streamVersion?: number }
    return event.streamId?.startsWith(prefix) === true && event.streamVersion === events
  })
  const streamId = (JSON.parse(line!) as { streamId: string }).streamId
  const records = exportLines
    .map(
      (l) =>
        JSON.parse(l) as {
          streamId?: string
          streamVersion: number
          globalPosition: string
          metadata: { recordedAt: number }
        },
    )
    .filter((r) => r.streamId === streamId)
  return { streamId, records }
}

beforeAll(async () => {
  await withSqliteStore(historyPath, generateHistory({ seed: 17, events: 600 }))
  expect((await cli(["export", "--out", exportPath, "--store", sqlite(historyPath)])).code).toBe(exitCodes.ok)
  exportLines = readFileSync(exportPath, "utf8").trimEnd().split("\n")
})

afterAll(() => folder.cleanup())

describe("replay", () => {
  it("reads small pages from a file and the log's pages from a server, where each page is a round trip", () => {
    expect(replayPageSizeOf({ _tag: "Sqlite", path: "audit.db" })).toBe(replayPageSizeEventsDefault)
    expect(replayPageSizeOf({ _tag: "Postgres", url: "postgres://localhost/mizan" })).toBe(logPageSizeEventsDefault)
    expect(replayPageSizeOf({ _tag: "KurrentDb", connectionString: "kurrentdb://localhost:2113" })).toBe(
      logPageSizeEventsDefault,
    )
    expect(replayPageSizeEventsDefault).toBeLessThan(logPageSizeEventsDefault)
  })

  it("answers 0 and a report that says all is well for a history with nothing broken", async () => {
    const run = await cli(["replay", "--store", sqlite(historyPath)])
    expect(run.code).toBe(exitCodes.ok)
    expect(run.stdout).toMatch(/^Replayed [0-9,]+ events of [0-9,]+ streams/)
    expect(run.stdout).toContain("OK: every event decoded")
    expect(run.stdout).toMatch(/paid +[0-9,]+\.[0-9]{2}/)
  })

  it("writes the report as JSON with --json: money as exact decimals, positions as text", async () => {
    const run = await cli(["replay", "--json", "--store", sqlite(historyPath)])
    const report = JSON.parse(run.stdout)
    expect(report).toMatchObject({ ok: true, events: exportLines.length - 1, firstPosition: "1" })
    for (const amount of Object.values(report.moneyAed)) expect(amount).toMatch(/^[0-9]+\.[0-9]{2}$/)
    expect(report.counts.acquiring.streams).toBeGreaterThan(0)
  })

  it("answers 1 and names the stream, version and rule when a history is damaged", async () => {
    const damaged = join(folder.dir, "damaged.db")
    await withSqliteStore(damaged, generateHistory({ seed: 17, events: 600 }))
    const { streamId } = streamWith(2)
    await withSqliteStore(damaged, closeOrderTwice(streamId))
    const run = await cli(["replay", "--store", sqlite(damaged)])
    expect(run.code).toBe(exitCodes.broken)
    expect(run.stdout).toContain(`${streamId} v`)
    expect(run.stdout).toContain("only the spec's status transitions happen")
    expect(run.stdout).toContain("BROKEN")
  })

  it("reports every event whose stored JSON is damaged by its place, and replays the rest: 1, not 2", async () => {
    const damaged = join(folder.dir, "damaged-json.db")
    await withSqliteStore(damaged, generateHistory({ seed: 17, events: 600 }))
    const { streamId, records } = streamWith(3)
    const [first, , third] = records as [(typeof records)[0], unknown, (typeof records)[0]]
    const typeOf = (position: string) =>
      (exportLines.map((l) => JSON.parse(l)) as Array<{ globalPosition?: string; type: string }>).find(
        (r) => r.globalPosition === position,
      )!.type
    // Two in one page (the replay reads 500 events a page), and one a page later that parses but does not decode.
    const undecoded = String(BigInt(first.globalPosition) + 500n)
    const db = new DatabaseSync(damaged)
    db.prepare("UPDATE events SET data = '{\"amountFils\": ' WHERE global_position = ?").run(first.globalPosition)
    db.prepare("UPDATE events SET metadata = '{' WHERE global_position = ?").run(third.globalPosition)
    db.prepare("UPDATE events SET data = '[]' WHERE global_position = ?").run(undecoded)
    db.close()
    const run = await cli(["replay", "--store", sqlite(damaged)])
    expect([run.code, run.stderr]).toEqual([exitCodes.broken, ""])
    expect(run.stdout).toContain("Undecodable events: 3\n")
    expect(run.stdout).toContain(
      `  ${streamId} v1 (position ${first.globalPosition}): ${typeOf(first.globalPosition)} v1: the store cannot read it: its stored data is not JSON\n`,
    )
    expect(run.stdout).toContain(
      `  ${streamId} v3 (position ${third.globalPosition}): ${typeOf(third.globalPosition)} v1: the store cannot read it: its stored metadata is not JSON\n`,
    )
    expect(run.stdout).toMatch(new RegExp(` v[0-9]+ \\(position ${undecoded}\\): [A-Za-z]+ v1: `))
    const report = JSON.parse((await cli(["replay", "--json", "--store", sqlite(damaged)])).stdout)
    // Every event read, the damaged ones in their places: none left out, and no version gap after them.
    expect(report).toMatchObject({ ok: false, events: exportLines.length - 1, versionGaps: { total: 0 } })
    expect(report.undecodable.listed.map((e: { globalPosition: string }) => e.globalPosition)).toEqual([
      first.globalPosition,
      third.globalPosition,
      undecoded,
    ])
    // A cut before the damage replays clean; one after it reports it.
    const before = String(BigInt(first.globalPosition) - 1n)
    expect((await cli(["at", "--position", before, "--store", sqlite(damaged)])).code).toBe(exitCodes.ok)
    const at = await cli(["at", "--position", first.globalPosition, "--json", "--store", sqlite(damaged)])
    expect([at.code, JSON.parse(at.stdout).report.undecodable.total]).toEqual([exitCodes.broken, 1])
  })

  it("refuses a store file that does not exist, with 2, and creates none", async () => {
    const missing = join(folder.dir, "missing.db")
    const run = await cli(["replay", "--store", sqlite(missing)])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain(`no store at ${missing}`)
    expect(existsSync(missing)).toBe(false)
  })

  it("refuses a store written by a newer schema, with 2, saying so", async () => {
    const newer = join(folder.dir, "newer.db")
    await withSqliteStore(newer, Effect.void)
    const db = new DatabaseSync(newer)
    db.exec(`PRAGMA user_version = ${schemaVersionCurrent + 1}`)
    db.close()
    const run = await cli(["replay", "--store", sqlite(newer)])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain("written by a newer version of Mizan")
  })

  it("reads a kurrentdb:// setting as the gateway does, and says plainly when no server answers, with 2", async () => {
    const unreachable = "kurrentdb://127.0.0.1:1?tls=false"
    const run = await cli(["replay", "--store", unreachable])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain(`the store at ${unreachable} cannot be used (Unavailable)`)
  })

  it("finds a relative store path from the directory it was started in, and the store from MIZAN_STORE", async () => {
    expect((await cli(["replay", "--store", "sqlite:history.db"], { cwd: folder.dir })).code).toBe(exitCodes.ok)
    expect((await cli(["replay"], { cwd: folder.dir, env: { MIZAN_STORE: "sqlite:history.db" } })).code).toBe(
      exitCodes.ok,
    )
  })

  it("answers 2 with the usage for an unknown command or a missing argument", async () => {
    for (const argv of [["audit"], ["show"], ["at"], ["import"]]) {
      const run = await cli([...argv, "--store", sqlite(historyPath)])
      expect(run.code).toBe(exitCodes.failed)
      expect(run.stderr).toContain("usage: mizan-audit")
    }
  })

  it("answers an unknown option, or one without its value, in one line and 2", async () => {
    const unknown = await cli(["replay", "--bogus", "--store", sqlite(historyPath)])
    expect([unknown.code, unknown.stderr]).toEqual([
      exitCodes.failed,
      "mizan-audit: unknown option --bogus; --help for usage\n",
    ])
    const valueless = await cli(["replay", "--store"])
    expect(valueless.stderr).toBe("mizan-audit: --store needs a value; --help for usage\n")
  })

  it("answers --help with the usage on standard output and 0, whatever else the line holds", async () => {
    for (const argv of [["--help"], ["replay", "--bogus", "-h"]]) {
      const run = await cli(argv)
      expect(run.code).toBe(exitCodes.ok)
      expect(run.stdout).toContain("usage: mizan-audit COMMAND")
      expect(run.stderr).toBe("")
    }
  })
})

describe("show", () => {
  it("prints each event of a stream with its time, type, version and data, and the state after it", async () => {
    const { streamId, records } = streamWith(3)
    const text = await cli(["show", streamId, "--store", sqlite(historyPath)])
    expect(text.code).toBe(exitCodes.ok)
    expect(text.stdout).toContain(`${streamId} (acquiring, ${records.length} events)`)
    expect(text.stdout).toContain("  state after (")
    const json = JSON.parse((await cli(["show", streamId, "--json", "--store", sqlite(historyPath)])).stdout)
    expect(json.events.map((e: { streamVersion: number }) => e.streamVersion)).toEqual(
      records.map((r) => r.streamVersion),
    )
    expect(json.events[0]).toMatchObject({ type: "OrderCreated", status: "CREATED", state: { status: "CREATED" } })
  })

  it("answers 2 for a stream the store does not hold", async () => {
    const run = await cli(["show", "acquiring-1-X-NOPE", "--store", sqlite(historyPath)])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain("holds no stream acquiring-1-X-NOPE")
  })
})

describe("at", () => {
  it("gives one stream's state as it was at a time between two of its events", async () => {
    const { streamId, records } = streamWith(2)
    const between = records[0]!.metadata.recordedAt
    const run = await cli(["at", String(between), "--stream", streamId, "--json", "--store", sqlite(historyPath)])
    expect(JSON.parse(run.stdout)).toMatchObject({ streamId, streamVersion: 1, status: "CREATED" })
  })

  it("answers 2 for a stream the store does not hold, and 0 with no events yet for one that began later", async () => {
    const missing = await cli([
      "at",
      "--position",
      "100",
      "--stream",
      "acquiring-1-X-NOPE",
      "--store",
      sqlite(historyPath),
    ])
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([
      exitCodes.failed,
      "",
      "mizan-audit: the store holds no stream acquiring-1-X-NOPE\n",
    ])
    const { streamId, records } = streamWith(1)
    const before = String(BigInt(records[0]!.globalPosition) - 1n)
    const later = await cli(["at", "--position", before, "--stream", streamId, "--store", sqlite(historyPath)])
    expect([later.code, later.stdout]).toEqual([exitCodes.ok, `${streamId} as of position ${before}: no events yet\n`])
  })

  it.each(["-1", "-20", "-0.5", "abc", "1.5"])(
    "refuses --position %s with 2, saying what it got and what a position is",
    async (position) => {
      const run = await cli(["at", "--position", position, "--store", sqlite(historyPath)])
      expect(run.code).toBe(exitCodes.failed)
      expect(run.stderr.split("\n")[0]).toBe(
        `mizan-audit: --position must be a global position, a whole number from 0 up, not "${position}"`,
      )
    },
  )

  it("gives every stream as of a global position, with the report of the log up to it", async () => {
    const run = await cli(["at", "--position", "100", "--json", "--store", sqlite(historyPath)])
    const at = JSON.parse(run.stdout)
    expect(at.asOf).toEqual({ position: "100" })
    expect(at.report).toMatchObject({ events: 100, lastPosition: "100", ok: true })
    expect(at.streams.length).toBe(at.report.streams)
  })

  it("reads ISO date-times as UTC unless they say otherwise, and ms since 1970", () => {
    expect(parseTime("2026-01-02T03:04:05")).toBe(Date.UTC(2026, 0, 2, 3, 4, 5))
    expect(parseTime("2026-01-02T03:04:05+04:00")).toBe(Date.UTC(2026, 0, 1, 23, 4, 5))
    expect(parseTime("1767225600000")).toBe(1_767_225_600_000)
    expect(parseTime("yesterday")).toMatchObject({ _tag: "AuditError" })
  })

  it("refuses ten digits, which are seconds since 1970 (date +%s), rather than cut the log in January 1970", () => {
    expect(parseTime("1767225600")).toMatchObject({
      detail: "TIME 1767225600 reads as ms since 1970 (1970-01-21T10:53:45.600Z): if it is seconds, give 1767225600000",
    })
    expect(parseTime("0")).toBe(0)
    expect(parseTime("99999999999")).toBe(99_999_999_999)
  })

  it("reads a date-time with a space for its T as UTC too, whatever the machine's zone", () => {
    const zone = process.env.TZ
    process.env.TZ = "Asia/Dubai"
    try {
      expect(parseTime("2026-01-02 03:04:05")).toBe(Date.UTC(2026, 0, 2, 3, 4, 5))
      expect(parseTime("2026-01-02 03:04:05+04:00")).toBe(Date.UTC(2026, 0, 1, 23, 4, 5))
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })

  it("refuses a day the calendar lacks and a time past the last one a date holds, not rolling them over", async () => {
    expect(parseTime("2026-02-29")).toMatchObject({ detail: 'TIME "2026-02-29" is not a date-time' })
    expect(parseTime("2026-04-31T12:00Z")).toMatchObject({ _tag: "AuditError" })
    expect(parseTime("2028-02-29T12:00Z")).toBe(Date.UTC(2028, 1, 29, 12))
    expect(parseTime("8640000000000000")).toBe(8_640_000_000_000_000)
    const run = await cli(["at", "8640000000000001", "--store", sqlite(historyPath)])
    expect([run.code, run.stderr]).toEqual([
      exitCodes.failed,
      `mizan-audit: TIME 8640000000000001 is past the last moment a date-time holds (8640000000000000 ms since 1970)\n\n${usage}`,
    ])
  })
})

describe("export and import", () => {
  const damagedCopy = (name: string, change: (lines: Array<string>) => Array<string>) => {
    const path = join(folder.dir, name)
    writeFileSync(path, `${change([...exportLines]).join("\n")}\n`)
    return path
  }

  const importInto = async (file: string, store: string) => cli(["import", file, "--store", sqlite(store)])

  it("moves a history into a new store exactly: the export of the import is the same file", async () => {
    const target = join(folder.dir, "copy.db")
    const run = await importInto(exportPath, target)
    expect(run.code).toBe(exitCodes.ok)
    expect(run.stdout).toContain(`imported ${(exportLines.length - 1).toLocaleString("en-US")} events`)
    const again = await cli(["export", "--store", sqlite(target)])
    expect(again.stdout).toBe(readFileSync(exportPath, "utf8"))
  })

  const refusals: ReadonlyArray<readonly [string, (lines: Array<string>) => Array<string>, RegExp]> = [
    ["cut short at a line boundary", (lines) => lines.slice(0, 40), /^line 40: the file ends without its end line/],
    [
      "cut short within a line",
      (lines) => [...lines.slice(0, 9), lines[9]!.slice(0, 30)],
      /^line 10: the line is not JSON/,
    ],
    [
      "out of global order",
      (lines) => [...lines.slice(0, 20), lines[21]!, lines[20]!, ...lines.slice(22)],
      /^line 22: .* is at position 21, not after the line before \(22\): the file is out of order/,
    ],
    [
      "missing a version of a stream",
      (lines) => {
        const at = lines.findIndex((l) => (JSON.parse(l) as { streamVersion?: number }).streamVersion === 2)
        const rest = lines.filter((_, i) => i !== at)
        return [...rest.slice(0, -1), JSON.stringify({ end: { events: rest.length - 1 } })]
      },
      /does not follow on: the stream is at version 1/,
    ],
    [
      "holding an event that does not decode",
      (lines) => lines.map((l, i) => (i === 30 ? l.replace(/"type":"[A-Za-z]+"/, '"type":"Nonsense"') : l)),
      /^line 31: .* does not decode: unknown event type Nonsense/,
    ],
    [
      "counting other events in its end line",
      (lines) => [...lines.slice(0, -1), JSON.stringify({ end: { events: 3 } })],
      /the end line counts 3 events, the file holds/,
    ],
  ]

  for (const [what, change, message] of refusals)
    it(`refuses a file ${what}, naming the line, and leaves no new store behind`, async () => {
      const file = damagedCopy(`${what.replaceAll(" ", "-")}.ndjson`, change)
      const target = join(folder.dir, `${what.replaceAll(" ", "-")}.db`)
      const run = await importInto(file, target)
      expect(run.code).toBe(exitCodes.failed)
      expect(run.stderr.replace(/^mizan-audit: /, "")).toMatch(message)
      // An empty store left behind would audit clean.
      expect(readdirSync(folder.dir).filter((name) => name.startsWith(basename(target)))).toEqual([])
    })

  it("refuses a damaged file into a store that was there, writing nothing and leaving it", async () => {
    const target = join(folder.dir, "there-before.db")
    expect((await cli(["migrate", "--store", sqlite(target)])).code).toBe(exitCodes.ok)
    const file = damagedCopy("cut-short-into-one-there.ndjson", (lines) => lines.slice(0, 40))
    expect((await importInto(file, target)).code).toBe(exitCodes.failed)
    const replay = JSON.parse((await cli(["replay", "--json", "--store", sqlite(target)])).stdout)
    expect(replay.events).toBe(0)
  })

  it("refuses a damaged file into an empty file that was there, leaving it empty: not a store that audits clean", async () => {
    const target = join(folder.dir, "empty-before.db")
    writeFileSync(target, "")
    const file = damagedCopy("cut-short-into-an-empty-file.ndjson", (lines) => lines.slice(0, 40))
    expect((await importInto(file, target)).code).toBe(exitCodes.failed)
    expect(readdirSync(folder.dir).filter((name) => name.startsWith(basename(target)))).toEqual([basename(target)])
    expect(readFileSync(target).length).toBe(0)
  })

  it("refuses an export file that does not read, naming it, with 2", async () => {
    const run = await importInto(folder.dir, join(folder.dir, "unread.db"))
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toBe(`mizan-audit: cannot read the export file ${folder.dir}: is a folder, not a file\n`)
  })

  /** `export --out PATH` run to the end: what it exits with and says. */
  const exportTo = (out: string) => cli(["export", "--out", out, "--store", sqlite(historyPath)])

  it("refuses an export file whose folder does not exist, naming it and --out, with 2", async () => {
    const out = join(folder.dir, "no-such-folder", "history.ndjson")
    const run = await exportTo(out)
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toBe(`mizan-audit: cannot write the export file ${out} (--out): its folder does not exist\n`)
    expect(existsSync(out)).toBe(false)
  })

  it("refuses a folder as the export file, naming it and --out, with 2", async () => {
    const run = await exportTo(folder.dir)
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toBe(
      `mizan-audit: cannot write the export file ${folder.dir} (--out): is a folder, not a file\n`,
    )
  })

  it("refuses to import a history into a store that already holds its streams", async () => {
    const target = join(folder.dir, "twice.db")
    expect((await importInto(exportPath, target)).code).toBe(exitCodes.ok)
    const run = await importInto(exportPath, target)
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toMatch(/line 1: .* does not follow on/)
  })
})

describe("a reader that closes the pipe early (`| head`)", () => {
  /** Standard output as a pipe whose reader has gone: the first write takes, every later one fails with EPIPE. */
  const pipeClosedAfterFirstWrite = () => {
    let writes = 0
    return new Writable({
      write(_chunk, _encoding, done) {
        writes += 1
        done(writes === 1 ? null : Object.assign(new Error("write EPIPE"), { code: "EPIPE", syscall: "write" }))
      },
    })
  }

  it.each([["at", "--position", "300"], ["export"]])(
    "stops %s quietly with 2, not with an unhandled stream error",
    async (...command) => {
      const stderr: Array<string> = []
      const code = await runCli([...command, "--store", sqlite(historyPath)], {
        stdout: pipeClosedAfterFirstWrite(),
        stderr: new Writable({
          write(chunk, _encoding, done) {
            stderr.push(String(chunk))
            done()
          },
        }),
        env: {},
        cwd: process.cwd(),
      })
      expect([code, stderr.join("")]).toEqual([exitCodes.failed, ""])
    },
  )
})

describe("--json", () => {
  it.each([
    ["migrate"],
    ["forget", "card:4111111111111111", "--by", "dpo@example.ae"],
    ["rotate-master-key"],
    ["import", "history.ndjson"],
  ])("is refused with 2 by %s, which writes no JSON, before it does anything", async (...command) => {
    const run = await cli([...command, "--json", "--store", sqlite(historyPath)])
    expect([run.code, run.stderr.split("\n")[0]]).toEqual([
      exitCodes.failed,
      `mizan-audit: ${command[0]} writes no JSON: --json is for replay, show, at, verify and access (export writes NDJSON always)`,
    ])
    expect(run.stdout).toBe("")
  })
})

describe("a stray word", () => {
  it.each([
    [["replay", "sqlite:elsewhere.db"], "no word", "sqlite:elsewhere.db"],
    [["verify", "elsewhere.db"], "no word", "elsewhere.db"],
    [["export", "out.ndjson"], "no word", "out.ndjson"],
    [["show", "acquiring-1-X-A", "acquiring-1-X-B"], "one word", "acquiring-1-X-B"],
    [["at", "2026-01-01", "2026-02-01"], "one word", "2026-02-01"],
    [["import", "a.ndjson", "b.ndjson"], "one word", "b.ndjson"],
    [["forget", "card:4111111111111111", "card:4000000000000002", "--by", "dpo"], "one word", "card:4000000000000002"],
    [["access", "card:4111111111111111", "card:4000000000000002"], "one word", "card:4000000000000002"],
  ])(
    "is refused with 2 before the store opens (%j): it would audit the default store, not the one meant",
    async (line, takes, stray) => {
      const run = await cli(line, { cwd: folder.dir })
      expect([run.code, run.stdout, run.stderr.split("\n")[0]]).toEqual([
        exitCodes.failed,
        "",
        `mizan-audit: ${line[0]} takes ${takes} besides its options, not also "${stray}" (the store is --store)`,
      ])
    },
  )
})
