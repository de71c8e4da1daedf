import { createInterface } from "node:readline"
import { it as effectIt } from "@effect/vitest"
import { logStart, type RecordedEvent } from "@mizan/eventsourcing"
import { readWholeLog } from "@mizan/eventsourcing/testing"
import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { makeSqliteEventStore, type Synchronous, synchronousLevels } from "../src/index.ts"
import { openSqliteEventStore } from "../src/store.ts"
import { scopedScript, spawnScript } from "./support/children.ts"
import { gatedLogSyncs, tempDatabasePath } from "./support/stores.ts"

const appender = new URL("./support/killableAppender.ts", import.meta.url)
const heldSyncAppender = new URL("./support/heldSyncAppender.ts", import.meta.url)
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
    const child = spawnScript(appender, [path, synchronous])
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

/**
 * Several processes may share one file at different levels (the notifier
 * and the gateway do). The other process here commits under
 * "full-offloaded" and never gets to sync (its syncs are held back for as
 * long as it lives), so its events are in the log and on no disk; this
 * process's own syncs are held back too, behind the gate. Whatever this
 * reader's level, its follower must hand the events out only once a sync
 * of its own has put them on disk.
 */
describe("events another process committed and has not synced", () => {
  const eventsAppended = 3

  effectIt.live.each(synchronousLevels)(
    "reach a follower only after a sync of the log by the follower's store (follower at %s)",
    (synchronous) =>
      Effect.gen(function* () {
        const path = yield* tempDatabasePath
        const syncs = gatedLogSyncs()
        const gate = syncs.hold()
        const store = yield* openSqliteEventStore(path, { synchronous, followPollIntervalMs: 10 }, syncs.logSyncOf)
        const seen: Array<string> = []
        yield* Effect.forkChild(
          Stream.runForEach(store.follow(logStart), (e) =>
            Effect.sync(() => seen.push(`${e.streamId} ${e.streamVersion}`)),
          ),
        )
        const writer = yield* scopedScript(heldSyncAppender, [path, String(eventsAppended)])
        yield* writer.printed("committed")
        // Real time: the follower polls the file on a Node timer for what the child, a process of its own, committed.
        const handedOut = Effect.as(Effect.repeat(Effect.sleep(5), { until: () => seen.length > 0 }), "handed them out")
        const first = yield* Effect.raceFirst(Effect.as(gate.waiting, "asked for a sync"), handedOut)
        expect(first).toBe("asked for a sync")
        expect(seen).toEqual([])
        yield* gate.release
        yield* Effect.repeat(Effect.sleep(5), { until: () => seen.length === eventsAppended })
        expect(seen).toEqual(["elsewhere 1", "elsewhere 2", "elsewhere 3"])
      }),
    20_000,
  )
})
