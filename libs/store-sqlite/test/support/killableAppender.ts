/**
 * A child process for the process-kill test (durability.spec.ts): appends to
 * eight streams at once until it is killed, and prints one line per
 * acknowledged append, after the acknowledgement:
 * `<streamId> <streamVersion> <globalPosition>:<eventId>...`.
 * Writes to a pipe are synchronous on Linux, so a printed line is a line the
 * parent can read even after a SIGKILL.
 */
import { Effect } from "effect"
import { makeSqliteEventStore, type SqliteEventStore, type Synchronous } from "../../src/index.ts"

const [path, synchronous] = process.argv.slice(2)
if (path === undefined) throw new Error("usage: killableAppender.ts DATABASE_PATH [full-offloaded|full|normal]")
const writers = 8

const writer = (store: SqliteEventStore, w: number) =>
  Effect.gen(function* () {
    const streamId = `writer-${w}`
    let version = 0
    for (let n = 0; ; n++) {
      const events = Array.from({ length: 1 + (n % 3) }, (_, i) => ({
        type: "Counted",
        schemaVersion: 1,
        data: { writer: w, n, i },
      }))
      const { streamVersion, records } = yield* store.append(streamId, events, version === 0 ? "no_stream" : version)
      version = streamVersion
      process.stdout.write(
        `${streamId} ${streamVersion} ${records.map((r) => `${r.globalPosition}:${r.id}`).join(" ")}\n`,
      )
    }
  })

await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const store = yield* makeSqliteEventStore(path, { synchronous: (synchronous ?? "full-offloaded") as Synchronous })
      yield* Effect.forEach(
        Array.from({ length: writers }, (_, w) => w),
        (w) => writer(store, w),
        { concurrency: "unbounded" },
      )
    }),
  ),
)
