import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import type { RecordedEvent } from "@mizan/eventsourcing"
import { readWholeLog } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeSqliteEventStore, type Synchronous } from "../src/index.ts"
import { tempDatabasePath } from "./support/stores.ts"

const appender = new URL("./support/killableAppender.ts", import.meta.url).pathname
/**
 * The kill comes at a random moment this long after the child's first
 * acknowledgement: by then it has batches committing, syncing and being
 * acknowledged all the time, so a kill lands in any of those steps.
 */
const killAfterFirstAcknowledgementMaxMs = 400
const killsPerLevel = 3
const childLifetimeMaxMs = 30_000

interface Acknowledged {
  readonly streamId: string
  readonly streamVersion: number
  readonly events: ReadonlyArray<{ readonly globalPosition: bigint; readonly id: string }>
}

const parseAcknowledgement = (line: string): Acknowledged => {
  const [streamId, streamVersion, ...events] = line.split(" ")
  return {
    streamId: streamId!,
    streamVersion: Number(streamVersion),
    events: events.map((event) => {
      const [position, id] = event.split(":")
      return { globalPosition: BigInt(position!), id: id! }
    }),
  }
}

/** Runs the appender on `path`, SIGKILLs it `killAfterMs` after its first acknowledgement, answers what it acknowledged. */
const appendUntilKilled = (path: string, synchronous: Synchronous, killAfterMs: number): Promise<Array<Acknowledged>> =>
  new Promise((resolve, reject) => {
    // process.execPath is the Node 24 running vitest, which runs the .ts child directly.
    const child = spawn(process.execPath, [appender, path, synchronous], { stdio: ["ignore", "pipe", "pipe"] })
    const acknowledged: Array<Acknowledged> = []
    let stderr = ""
    // A child that never gets going must not outlive the test.
    const giveUp = setTimeout(() => child.kill("SIGKILL"), childLifetimeMaxMs)
    child.stderr.on("data", (chunk) => {
      stderr += chunk
    })
    createInterface({ input: child.stdout }).on("line", (line) => {
      acknowledged.push(parseAcknowledgement(line))
      // A real timer: the child runs on its own, not on any Effect clock.
      if (acknowledged.length === 1) setTimeout(() => child.kill("SIGKILL"), killAfterMs)
    })
    child.on("exit", (_code, signal) => {
      clearTimeout(giveUp)
      if (signal === "SIGKILL" && acknowledged.length > 0) resolve(acknowledged)
      else reject(new Error(`the appender stopped after ${acknowledged.length} acknowledgements: ${stderr}`))
    })
  })

/** Every page of the log: at "normal" the writers outrun one page (10,000 events) before the kill, and an event past it read as lost. */
const logAfterKill = (path: string) =>
  Effect.scoped(Effect.flatMap(makeSqliteEventStore(path), (store) => readWholeLog(store, 5_000)))

/**
 * What this proves, and what not: a SIGKILL ends the process but not the
 * kernel, so whatever the process wrote to a file survives it, synced or not.
 * The test therefore proves that nothing is acknowledged before its commit
 * is written (and that the log reopens whole after a kill in any step);
 * it cannot prove that a commit was on disk when acknowledged, which only a
 * power loss shows. That part rests on the order the store keeps, tested in
 * the contract suite with the sync held back ("shows a follower no event
 * before its append is acknowledged as durable"): under "full-offloaded" no
 * append is acknowledged before an `fdatasync` of the log that started after
 * its commit has returned.
 */
describe("an append acknowledged to the caller survives a process kill", () => {
  it.each(["full-offloaded", "full", "normal"] as const)(
    "keeps every acknowledged event, at its acknowledged position and version, when the writer is SIGKILLed at random moments (synchronous %s)",
    { timeout: 120_000 },
    (synchronous) =>
      Effect.runPromise(
        Effect.forEach(Array.from({ length: killsPerLevel }), () => killAndCheck(synchronous), { discard: true }),
      ),
  )
})

const killAndCheck = (synchronous: Synchronous) =>
  Effect.scoped(
    Effect.gen(function* () {
      const path = yield* tempDatabasePath
      const killAfterMs = Math.floor(Math.random() * killAfterFirstAcknowledgementMaxMs)
      const acknowledged = yield* Effect.promise(() => appendUntilKilled(path, synchronous, killAfterMs))
      const log = yield* logAfterKill(path)
      const byId = new Map<string, RecordedEvent>(log.map((e) => [e.id, e]))

      for (const ack of acknowledged) {
        ack.events.forEach((event, i) => {
          const recorded = byId.get(event.id)
          expect(recorded, `acknowledged event ${event.id} is missing (killed ${killAfterMs} ms in)`).toBeDefined()
          expect(recorded).toMatchObject({
            streamId: ack.streamId,
            streamVersion: ack.streamVersion - ack.events.length + i + 1,
            globalPosition: event.globalPosition,
          })
        })
      }
      // The log after the kill is whole: positions 1..n without a gap, every stream 1..v without a gap.
      expect(log.map((e) => e.globalPosition)).toEqual(log.map((_, i) => BigInt(i + 1)))
      for (const streamId of new Set(log.map((e) => e.streamId))) {
        const versions = log.filter((e) => e.streamId === streamId).map((e) => e.streamVersion)
        expect(versions).toEqual(versions.map((_, i) => i + 1))
      }
    }),
  )
