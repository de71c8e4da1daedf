/**
 * A child process for durability.spec.ts: appends `count` events to the
 * store at `path` under "full-offloaded", with every sync of the log held
 * back for as long as it lives (the store's own LogSync behind the tests'
 * gate), so its commit stays in the log unsynced and its append
 * unacknowledged. Prints `committed` once the append's commit waits for its
 * sync, and then waits to be killed.
 */
import { Effect } from "effect"
import { openSqliteEventStore } from "../../src/store.ts"
import { gatedLogSyncs } from "./stores.ts"

const [path, count] = process.argv.slice(2)
if (path === undefined || count === undefined) throw new Error("usage: heldSyncAppender.ts DATABASE_PATH COUNT")

const syncs = gatedLogSyncs()
const gate = syncs.hold()

await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const store = yield* openSqliteEventStore(path, { synchronous: "full-offloaded" }, syncs.logSyncOf)
      const events = Array.from({ length: Number(count) }, (_, n) => ({
        type: "Counted",
        schemaVersion: 1,
        data: { n },
      }))
      yield* Effect.forkChild(store.append("elsewhere", events, "no_stream"))
      yield* gate.waiting
      process.stdout.write("committed\n")
      yield* Effect.never
    }),
  ),
)
