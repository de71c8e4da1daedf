/**
 * What a read hands out, at every level (durability.ts): nothing past the
 * position the store knows durable, and which sync a read waits for.
 * Real time (it.live): the syncs run in libuv's thread pool, on no Effect clock.
 */
import { it } from "@effect/vitest"
import { logStart, type NewEvent } from "@mizan/eventsourcing"
import type { DurabilityGate } from "@mizan/eventsourcing/testing"
import { Effect, Fiber } from "effect"
import { describe, expect } from "vitest"
import { synchronousLevels } from "../src/index.ts"
import { type LogSync, threadPoolLogSync } from "../src/logSync.ts"
import { openSqliteEventStore } from "../src/store.ts"
import { gatedLogSyncs, heldDatasyncs, openFreshStore, tempDatabasePath } from "./support/stores.ts"

const happened = (n: number): NewEvent => ({ type: "Happened", schemaVersion: 1, data: { n } })

/** Which comes first: the read's request for a sync (held at the gate), or its answer. */
const firstOf = <A, E>(gate: DurabilityGate, read: Fiber.Fiber<A, E>) =>
  Effect.raceFirst(Effect.as(gate.waiting, "asked for a sync"), Effect.as(Fiber.join(read), "handed them out"))

describe("a store just opened", () => {
  it.live.each(synchronousLevels)(
    "hands out the events the file already held only after a sync of the log: they may be a killed process's unsynced commits (synchronous %s)",
    (synchronous) =>
      Effect.gen(function* () {
        const fresh = yield* openFreshStore({ synchronous })
        yield* fresh.store.append("before", [happened(1), happened(2)], "no_stream")
        const reopened = yield* fresh.reopen()
        const gate = yield* fresh.holdDurability()
        const reading = yield* Effect.forkChild(reopened.readAll({ after: logStart, maxCount: 10 }))
        expect(yield* firstOf(gate, reading)).toBe("asked for a sync")
        yield* gate.release
        expect((yield* Fiber.join(reading)).map((e) => e.streamVersion)).toEqual([1, 2])
      }),
  )
})

describe("a store's own appends", () => {
  it.live.each([
    ["normal", "acknowledged at their commit, as NORMAL promises"],
    ["full", "SQLite synced the log inside their COMMIT"],
  ] as const)('are handed to readers at once under "%s": %s', ([synchronous]) =>
    Effect.gen(function* () {
      const { store, holdDurability } = yield* openFreshStore({ synchronous })
      const gate = yield* holdDurability()
      yield* store.append("s", [happened(1)], "no_stream")
      const reading = yield* Effect.forkChild(store.readStream("s"))
      expect(yield* firstOf(gate, reading)).toBe("handed them out")
    }),
  )

  it.live(
    'are handed out under "normal" only after a sync when another connection\'s unsynced commit lies below them',
    () =>
      Effect.gen(function* () {
        const { path, store, holdDurability } = yield* openFreshStore({ synchronous: "normal" })
        const gate = yield* holdDurability()
        // Another connection commits under "full-offloaded" and never syncs: its commit is in the log, on no disk.
        const otherSyncs = gatedLogSyncs()
        const otherGate = otherSyncs.hold()
        const other = yield* openSqliteEventStore(path, {}, otherSyncs.logSyncOf)
        yield* Effect.forkChild(other.append("other", [happened(1)], "no_stream"))
        yield* otherGate.waiting
        const { records } = yield* store.append("s", [happened(2)], "no_stream")
        expect(records[0]!.globalPosition).toBe(2n)
        const reading = yield* Effect.forkChild(store.readAll({ after: logStart, maxCount: 10 }))
        expect(yield* firstOf(gate, reading)).toBe("asked for a sync")
        yield* gate.release
        expect((yield* Fiber.join(reading)).map((e) => e.streamId)).toEqual(["other", "s"])
      }),
  )
})

/** The thread pool's syncs, the first one held while it runs, and every request for a sync counted. */
const firstSyncHeld = () => {
  const datasyncs = heldDatasyncs(1)
  const requested: Array<number> = []
  const logSyncOf = (walPath: string): LogSync => {
    const inner = threadPoolLogSync(walPath, datasyncs.datasync)
    return {
      ...inner,
      afterSync: (sync, done) => {
        requested.push(sync)
        inner.afterSync(sync, done)
      },
    }
  }
  return { ...datasyncs, logSyncOf, requested }
}

describe("a read right after an append", () => {
  it.live("waits for the sync already running, which started after the append's commit, not for the one after it", () =>
    Effect.gen(function* () {
      const path = yield* tempDatabasePath
      const syncs = firstSyncHeld()
      const store = yield* openSqliteEventStore(path, {}, syncs.logSyncOf)
      const appending = yield* Effect.forkChild(store.append("s", [happened(1)], "no_stream"))
      // Sync 1 runs, asked for by the commit: it covers the append.
      yield* syncs.started(1)
      const reading = yield* Effect.forkChild(store.readAll({ after: logStart, maxCount: 10 }))
      // Real time: the read asks on the event loop, after its rows came back.
      yield* Effect.repeat(Effect.sleep(1), { until: () => syncs.requested.length === 2 })
      expect(syncs.requested).toEqual([1, 1])
      yield* syncs.releaseNext
      expect((yield* Fiber.join(appending)).streamVersion).toBe(1)
      expect((yield* Fiber.join(reading)).map((e) => e.streamId)).toEqual(["s"])
      expect(syncs.calls()).toBe(1)
    }),
  )
})
