/**
 * `npm run bench -- audit`: the audit's replay of one million generated
 * events, every invariant checked, beside the raw read rate of the same
 * SQLite store measured in the same run (issue 7). Goal: the replay reads at
 * least 50% of the raw rate.
 *
 * - The history is written once by tools/histories (seed 1, 1,000,000
 *   events) into a SQLite file in the temp folder, keyed by seed and size,
 *   and reused by later runs: writing it takes minutes.
 * - Raw read: `readAll` pages of the same store, nothing decoded (the
 *   store's own row parsing is all it does).
 * - Replay: the audit's `replayLog` on the same store and pages: every event
 *   decoded with its aggregate's codec, folded with `evolve`, and its
 *   aggregate's `invariants` checked after every append.
 * Then one more replay to measure the memory the replay keeps per stream.
 */
// Before any schema is used, as in the audit's command line (apps/audit/src/main.ts).
import "effect/schema/SchemaJITCompiler/enable"
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { isClean, replayLog } from "@mizan/audit"
import { EventStore, type EventStoreShape, logStart } from "@mizan/eventsourcing"
import { generateHistory } from "@mizan/histories"
import { makeSqliteEventStore } from "@mizan/store-sqlite"
import { Effect } from "effect"
import {
  collectGarbage,
  compare,
  describeMachine,
  formatTable,
  goalsMet,
  type RunCounts,
  type Workload,
} from "./harness.ts"

const seed = 1
const eventsInHistory = 1_000_000
const pageSizeEvents = 5_000
/** A replay of a million events takes seconds; a few alternating runs give a steady median. */
const counts: RunCounts = { warmupRuns: 1, measuredRuns: 3 }

const folder = join(tmpdir(), "mizan-bench-audit")
const historyPath = join(folder, `history-seed${seed}-${eventsInHistory}.db`)
/** Written once the history is complete: a run stopped halfway leaves no marker, and the file is written again. */
const donePath = `${historyPath}.done.json`

const removeHistory = () => {
  for (const suffix of ["", "-wal", "-shm", ".done.json"]) rmSync(`${historyPath}${suffix}`, { force: true })
}

const ensureHistory = async (): Promise<string> => {
  if (existsSync(donePath)) return readFileSync(donePath, "utf8")
  mkdirSync(folder, { recursive: true })
  removeHistory()
  console.log(`writing ${eventsInHistory.toLocaleString("en-US")} events (seed ${seed}) into ${historyPath} ...`)
  const startedMs = performance.now()
  const partial = `${historyPath}.partial`
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${partial}${suffix}`, { force: true })
  const history = await Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(makeSqliteEventStore(partial, { synchronous: "normal" }), (store) =>
        Effect.provideService(generateHistory({ seed, events: eventsInHistory }), EventStore, store),
      ),
    ),
  )
  // Closing the store checkpointed its log into the file: the one file is the whole history.
  renameSync(partial, historyPath)
  const summary = JSON.stringify(history)
  writeFileSync(donePath, summary)
  console.log(`written in ${((performance.now() - startedMs) / 1_000).toFixed(0)} s\n`)
  return summary
}

const rawRead = (store: EventStoreShape): Workload => ({
  name: `raw read: readAll in pages of ${pageSizeEvents}, nothing decoded`,
  operationsPerRun: eventsInHistory,
  run: () =>
    Effect.runPromise(
      Effect.gen(function* () {
        let after = logStart
        let read = 0
        while (true) {
          const page = yield* store.readAll({ after, maxCount: pageSizeEvents })
          const last = page.at(-1)
          if (last === undefined) break
          read += page.length
          after = last.globalPosition
        }
        if (read < eventsInHistory) throw new Error(`read ${read} events, expected ${eventsInHistory} at least`)
      }),
    ),
})

const replay = (store: EventStoreShape): Workload => ({
  name: "audit replay: decode, evolve, every invariant",
  operationsPerRun: eventsInHistory,
  run: () =>
    Effect.runPromise(
      Effect.map(Effect.provideService(replayLog({ pageSizeEvents }), EventStore, store), (replayer) => {
        const report = replayer.report()
        if (!isClean(report)) throw new Error("the generated history does not replay clean")
      }),
    ),
})

/** The heap the replay keeps per stream: the heap after a replay (its states held) less before it, over streams. */
const heapPerStream = async (store: EventStoreShape) => {
  collectGarbage()
  const beforeBytes = process.memoryUsage().heapUsed
  const replayer = await Effect.runPromise(Effect.provideService(replayLog({ pageSizeEvents }), EventStore, store))
  collectGarbage()
  const afterBytes = process.memoryUsage().heapUsed
  return { streams: replayer.streams.size, bytesPerStream: (afterBytes - beforeBytes) / replayer.streams.size }
}

const startedMs = performance.now()
console.log(`Audit replay benchmark on ${describeMachine()}\n`)
const summary = await ensureHistory()
const { comparison, memory } = await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const store = yield* makeSqliteEventStore(historyPath)
      const comparison = yield* Effect.promise(() =>
        compare(replay(store), rawRead(store), { unit: "events", counts, goalRatio: 0.5 }),
      )
      const memory = yield* Effect.promise(() => heapPerStream(store))
      return { comparison, memory }
    }),
  ),
)
console.log(`history: ${summary}\n`)
console.log(formatTable([comparison]))
console.log(
  `\nreplay keeps ${memory.streams.toLocaleString("en-US")} streams, about ${Math.round(memory.bytesPerStream).toLocaleString("en-US")} bytes of heap each`,
)
console.log(
  `\n${((performance.now() - startedMs) / 1_000).toFixed(1)} s; medians of ${counts.measuredRuns} runs after ${counts.warmupRuns} warm-up run, the two sides' runs alternating.`,
)
console.log(goalsMet([comparison]) ? "Every goal met." : "Goal MISSED: see apps/audit/README.md, Performance.")
