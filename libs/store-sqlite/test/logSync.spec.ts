/**
 * The numbered syncs of the log (logSync.ts), on a plain file: which sync
 * answers which request. Real time (it.live): `fdatasync` runs in libuv's
 * thread pool, on no Effect clock.
 */
import { writeFileSync } from "node:fs"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { threadPoolLogSync, walPathOf } from "../src/logSync.ts"
import { heldDatasyncs, tempDatabasePath } from "./support/stores.ts"

/** A log of two held syncs (the third and later run at once), closed with the test's scope. */
const heldLog = Effect.gen(function* () {
  const walPath = walPathOf(yield* tempDatabasePath)
  writeFileSync(walPath, "")
  const datasyncs = heldDatasyncs(2)
  const logSync = yield* Effect.acquireRelease(
    Effect.sync(() => threadPoolLogSync(walPath, datasyncs.datasync)),
    (log) => Effect.sync(log.close),
  )
  return { logSync, datasyncs }
})

describe("the syncs of the log", () => {
  it.live("number themselves as they start, and answer each request with the sync it names", () =>
    Effect.gen(function* () {
      const { logSync, datasyncs } = yield* heldLog
      const answered: Array<string> = []
      const ask = (sync: number, name: string) =>
        logSync.afterSync(sync, (error) => answered.push(error === undefined ? name : `${name}: ${error.message}`))
      // Real time: answers come from the thread pool.
      const answersReach = (count: number) => Effect.repeat(Effect.sleep(1), { until: () => answered.length >= count })

      expect(logSync.startedSyncs()).toBe(0)
      ask(1, "first")
      yield* datasyncs.started(1)
      expect(logSync.startedSyncs()).toBe(1)
      // Asked while sync 1 runs: one joins it, two wait for sync 2, which starts only when 1 has ended.
      ask(1, "joining 1")
      ask(2, "next a")
      ask(2, "next b")
      expect(datasyncs.calls()).toBe(1)
      yield* datasyncs.releaseNext
      yield* answersReach(2)
      yield* datasyncs.started(2)
      expect(answered).toEqual(["first", "joining 1"])
      yield* datasyncs.releaseNext
      yield* answersReach(4)
      expect(answered).toEqual(["first", "joining 1", "next a", "next b"])
      // Sync 2 has ended: asking for it again is answered at once, with no sync of its own.
      ask(2, "again")
      expect(answered.at(-1)).toBe("again")
      expect(datasyncs.calls()).toBe(2)
    }),
  )
})
