/**
 * `npm run bench -- sqlite`: the SQLite event store beside raw node:sqlite on
 * the same machine, in the same run (tools/bench). Goals:
 * appends from 64 concurrent writers at the default durability
 * ("full-offloaded": NORMAL commits, the log synced in the thread pool) at
 * least 85% of raw SQL committing the same rows 64 per transaction at FULL
 * (beside the store at "full", a minimal async group commit doing the
 * store's work by hand, and the rate with 100k and 1M events already in
 * the file; each append's latency and the event loop's delay come from
 * instrumented runs of their own, which no ratio uses); at NORMAL at
 * least 50% of a raw single-transaction batch insert; read-all at least 70%
 * of a raw keyset-paged select.
 *
 * Both sides start from the same JavaScript events and write the same table:
 * the raw side's file is created by the store (so it has the store's schema,
 * indexes and pragmas) and then written by hand-written SQL that does what
 * any program must do per row: give the event an id, encode its data as
 * JSON, insert it. Every side that has writers (the store at each level and
 * file size, the minimal group commit) runs the same 64-writer workload,
 * `concurrentAppends`, so that only what takes the appends differs.
 */

import { randomUUIDv7 } from "node:crypto"
import { DatabaseSync, type StatementSync } from "node:sqlite"
import { canonicalJson, chainGenesis, chainHashOfCanonical, type NewEvent } from "@mizan/eventsourcing"
import { makeSqliteEventStore, type SqliteEventStore, type Synchronous, walCheckpointPages } from "@mizan/store-sqlite"
import { Effect, type Scope } from "effect"
import { type EventRow, eventColumns } from "../../../libs/store-sqlite/src/rows.ts"
import { paymentEvent } from "./events.ts"
import {
  type Comparison,
  compare,
  comparisonOf,
  describeMachine,
  formatTable,
  goalsMet,
  latenciesOf,
  type Measurement,
  measureTogether,
  median,
  type RunCounts,
  type Workload,
} from "./harness.ts"
import { readAllInPages } from "./readPages.ts"
import {
  closeScope,
  openScoped,
  removeFile,
  type TempFile,
  tempFile,
  writersAppending,
  writersConcurrent,
} from "./storeSetUp.ts"

const appendsSequential = 1_000
const appendsPerWriter = 100
const eventsConcurrent = writersConcurrent * appendsPerWriter
const eventsInLog = 50_000
const streamsInLog = 1_000
const pageSizeEvents = 1_000
/** The disk of a shared virtual machine swings by 2x within seconds; medians of many alternating runs steady the ratios. */
const counts: RunCounts = { warmupRuns: 2, measuredRuns: 9 }
/** The instrumented runs give latencies only (tens of thousands of appends), not the ratios: fewer runs do. */
const instrumentedCounts: RunCounts = { warmupRuns: 1, measuredRuns: 5 }

const eventsOfStream = (count: number) => Array.from({ length: count }, (_, i) => paymentEvent(i))

/** The expected version of a stream's next append, as the command handler gives it. */
const expectedAfter = (appended: number) => (appended === 0 ? "no_stream" : appended)

// --- files -----------------------------------------------------------------

interface OpenStore extends TempFile {
  readonly store: SqliteEventStore
  readonly scope: Scope.Closeable
}

const openStore = async (synchronous: Synchronous, file: TempFile = tempFile()): Promise<OpenStore> => {
  const { scope, value: store } = await openScoped(makeSqliteEventStore(file.path, { synchronous }))
  return { ...file, store, scope }
}

const closeStore = async (open: OpenStore) => {
  await closeScope(open.scope)
  removeFile(open)
}

interface OpenRaw extends TempFile {
  readonly db: DatabaseSync
  readonly insert: StatementSync
}

/** The levels raw SQL runs at: SQLite's own (the store's "full-offloaded" is NORMAL plus a sync of its own). */
type RawSynchronous = Exclude<Synchronous, "full-offloaded">

/** A raw connection to a new file that the store created (its schema and pragmas), at the same durability. */
const openRaw = async (synchronous: RawSynchronous): Promise<OpenRaw> => {
  const file = tempFile()
  const creator = await openStore(synchronous, file)
  await closeScope(creator.scope)
  const db = new DatabaseSync(file.path)
  db.exec(`PRAGMA synchronous = ${synchronous}; PRAGMA wal_autocheckpoint = ${walCheckpointPages}`)
  const insert = db.prepare(
    "INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)",
  )
  return { ...file, db, insert }
}

const closeRaw = (raw: OpenRaw) => {
  raw.db.close()
  removeFile(raw)
}

const insertRaw = (raw: OpenRaw, streamId: string, version: number, event: NewEvent) =>
  raw.insert.run(
    randomUUIDv7(),
    streamId,
    version,
    event.type,
    event.schemaVersion,
    JSON.stringify(event.data),
    Date.now(),
  )

// --- appends ---------------------------------------------------------------

const sequentialAppends = (synchronous: Synchronous): Workload<OpenStore> => ({
  name: `store (${synchronous}): sequential appends of 1 event`,
  operationsPerRun: appendsSequential,
  setup: () => openStore(synchronous),
  run: ({ store }) =>
    Effect.runPromise(
      Effect.forEach(eventsOfStream(appendsSequential), (event, i) =>
        store.append("sequential", [event], expectedAfter(i)),
      ),
    ),
  teardown: closeStore,
})

const rawTransactionPerRow = (synchronous: RawSynchronous): Workload<OpenRaw> => ({
  name: `raw (${synchronous}): one INSERT per transaction`,
  operationsPerRun: appendsSequential,
  setup: () => openRaw(synchronous),
  run: (raw) => {
    for (const [i, event] of eventsOfStream(appendsSequential).entries()) {
      raw.db.exec("BEGIN IMMEDIATE")
      insertRaw(raw, "sequential", i + 1, event)
      raw.db.exec("COMMIT")
    }
  },
  teardown: closeRaw,
})

// --- 64 concurrent writers --------------------------------------------------

/** One append as a writer makes it: `event` to `streamId`, which holds `version` events; fails unless it is taken. */
type AppendOne = (streamId: string, version: number, event: NewEvent) => Effect.Effect<unknown, unknown>

/** What takes the 64 writers' appends: the store (at a level, into a file), or the minimal group commit by hand. */
interface Appender<Context> {
  readonly name: string
  /** Prepares one run (a file, a connection); not timed. */
  readonly open: () => Promise<Context>
  readonly appendOf: (context: Context) => AppendOne
  readonly close: (context: Context) => unknown
}

/** What instrumented runs saw besides their rate, over the measured runs: each append's latency, each run's longest event-loop stall. */
interface UnderLoad {
  readonly appendLatenciesMs: Array<number>
  readonly longestStallsMs: Array<number>
}

const underLoad = (): UnderLoad => ({ appendLatenciesMs: [], longestStallsMs: [] })

/**
 * Watches the event loop with a 1 ms timer; `stop` answers the longest time
 * between two of its turns (or since the last, at the end): how long a
 * request or a follower in the same process could have waited for the loop.
 * A loop that never reaches its timers during the run stalls for all of it.
 */
const watchEventLoop = () => {
  let lastTurnMs = performance.now()
  let longestMs = 0
  const turn = () => {
    const now = performance.now()
    longestMs = Math.max(longestMs, now - lastTurnMs)
    lastTurnMs = now
  }
  const ticker = setInterval(turn, 1)
  return {
    stop: () => {
      clearInterval(ticker)
      turn()
      return longestMs
    },
  }
}

/** `append`, each call's time from call to acknowledgement added to `latenciesMs`. */
const timed =
  (append: AppendOne, latenciesMs: Array<number>): AppendOne =>
  (streamId, version, event) =>
    Effect.suspend(() => {
      const startedMs = performance.now()
      return Effect.tap(append(streamId, version, event), () =>
        Effect.sync(() => latenciesMs.push(performance.now() - startedMs)),
      )
    })

/**
 * 64 writers, each appending `appendsPerWriter` events one at a time to a
 * stream of its own at the exact version (as the command handler does),
 * through `appender`: the one workload of every side of the 64-writer lines,
 * so that their ratios compare like with like. Given `seen`, it also times
 * each append and watches the event loop: instrumented runs, for the
 * latency table only, so that whatever the timing costs lands on no ratio.
 */
const concurrentAppends = <Context>(appender: Appender<Context>, seen?: UnderLoad): Workload<Context> => {
  let runs = 0
  return {
    name: `${appender.name}: ${writersConcurrent} concurrent writers, appends of 1 event${seen === undefined ? "" : ", instrumented"}`,
    operationsPerRun: eventsConcurrent,
    setup: appender.open,
    run: async (context, { measured }) => {
      // Streams no earlier run wrote: runs into a file that is kept (`storeInto`) find it holding theirs.
      const run = ++runs
      const latenciesMs: Array<number> = []
      const append = seen === undefined ? appender.appendOf(context) : timed(appender.appendOf(context), latenciesMs)
      const loop = seen === undefined ? undefined : watchEventLoop()
      const events = eventsOfStream(appendsPerWriter)
      await writersAppending(appendsPerWriter, (w, i) => append(`writer-${w}/${run}`, i, events[i]!))
      const longestStallMs = loop?.stop()
      if (longestStallMs === undefined || seen === undefined || !measured) return
      seen.appendLatenciesMs.push(...latenciesMs)
      seen.longestStallsMs.push(longestStallMs)
    },
    teardown: appender.close,
  }
}

const appendToStore =
  ({ store }: OpenStore): AppendOne =>
  (streamId, version, event) =>
    store.append(streamId, [event], expectedAfter(version))

/** The store at `synchronous` on a fresh file each run. */
const storeAt = (synchronous: Synchronous): Appender<OpenStore> => ({
  name: `store (${synchronous})`,
  open: () => openStore(synchronous),
  appendOf: appendToStore,
  close: closeStore,
})

/** The store at its default on `file`, which holds `events` events already; each run's appends stay for the next. */
const storeInto = (file: TempFile, events: number): Appender<OpenStore> => ({
  name: `store (full-offloaded), ${events.toLocaleString("en-US")} events in the file`,
  open: () => openStore("full-offloaded", file),
  appendOf: appendToStore,
  // The file is removed after the last run.
  close: ({ scope }) => closeScope(scope),
})

/** Raw inserts of the concurrent workload's rows, in the order group commit writes them, `rowsPerTransaction` at a time. */
const rawInTransactionsOf = (
  synchronous: RawSynchronous,
  rowsPerTransaction: number,
  name: string,
): Workload<OpenRaw> => ({
  name: `raw (${synchronous}): ${name}`,
  operationsPerRun: eventsConcurrent,
  setup: () => openRaw(synchronous),
  run: (raw) => {
    const events = eventsOfStream(appendsPerWriter)
    for (let row = 0; row < eventsConcurrent; row++) {
      if (row % rowsPerTransaction === 0) raw.db.exec("BEGIN IMMEDIATE")
      const version = Math.floor(row / writersConcurrent)
      insertRaw(raw, `writer-${row % writersConcurrent}`, version + 1, events[version]!)
      if (row % rowsPerTransaction === rowsPerTransaction - 1 || row === eventsConcurrent - 1) raw.db.exec("COMMIT")
    }
  },
  teardown: closeRaw,
})

const rawSingleTransaction = (synchronous: RawSynchronous) =>
  rawInTransactionsOf(synchronous, eventsConcurrent, "every row in one transaction")

interface GroupCommitByHand {
  readonly raw: OpenRaw
  readonly append: AppendOne
}

/**
 * The least machinery an asynchronous group commit needs, by hand: the 64
 * writers' appends queue up, one `setImmediate` later the queue is written
 * in one transaction (each append checked against its stream's version, its
 * event given an id, encoded once as canonical JSON and chained to the
 * stream's previous hash over that text, as the store does), and every
 * writer's append completes after COMMIT.
 * What the store's append path could reach with nothing of its own.
 */
const minimalGroupCommit = (synchronous: RawSynchronous): Appender<GroupCommitByHand> => ({
  name: `raw (${synchronous}): minimal async group commit, chain hash computed`,
  open: async () => {
    const raw = await openRaw(synchronous)
    interface Queued {
      readonly streamId: string
      readonly expected: number
      readonly event: NewEvent
      readonly done: (taken: boolean) => void
    }
    const insert = raw.db.prepare(
      "INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at, chain_hash) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)",
    )
    const heads = new Map<string, { version: number; chainHash: string }>()
    let queue: Array<Queued> = []
    const flush = () => {
      const batch = queue
      queue = []
      const recordedAt = Date.now()
      raw.db.exec("BEGIN IMMEDIATE")
      const outcomes = batch.map(({ streamId, expected, event }) => {
        const head = heads.get(streamId) ?? { version: 0, chainHash: chainGenesis }
        if (head.version !== expected) return false
        // Encoded once, canonically, and hashed as stored: as the store does (libs/store-sqlite, The chain).
        const fields = {
          id: randomUUIDv7(),
          streamId,
          streamVersion: head.version + 1,
          type: event.type,
          schemaVersion: event.schemaVersion,
          dataJson: canonicalJson(event.data),
          metadataJson: canonicalJson({ recordedAt }),
        }
        const chainHash = chainHashOfCanonical(head.chainHash, fields)
        insert.run(
          fields.id,
          streamId,
          fields.streamVersion,
          fields.type,
          fields.schemaVersion,
          fields.dataJson,
          recordedAt,
          chainHash,
        )
        heads.set(streamId, { version: fields.streamVersion, chainHash })
        return true
      })
      raw.db.exec("COMMIT")
      for (const [i, queued] of batch.entries()) queued.done(outcomes[i]!)
    }
    const append: AppendOne = (streamId, expected, event) =>
      Effect.callback<void, Error>((resume) => {
        if (queue.length === 0) setImmediate(flush)
        queue.push({
          streamId,
          expected,
          event,
          done: (taken) =>
            resume(taken ? Effect.void : Effect.fail(new Error(`a version conflict on ${streamId} in the benchmark`))),
        })
      })
    return { raw, append }
  },
  appendOf: ({ append }) => append,
  close: ({ raw }) => closeRaw(raw),
})

/** Files already holding this many events, for the append rate as the log grows. */
const eventsAlreadyInFile = [100_000, 1_000_000] as const

/** A file of `events` events over 10,000 streams, written by raw SQL in transactions of 50,000 rows. */
const prefilledFile = async (events: number): Promise<TempFile> => {
  const raw = await openRaw("normal")
  for (let n = 0; n < events; n++) {
    if (n % 50_000 === 0) raw.db.exec("BEGIN IMMEDIATE")
    insertRaw(raw, `old-${n % 10_000}`, Math.floor(n / 10_000) + 1, paymentEvent(n))
    if (n % 50_000 === 49_999 || n === events - 1) raw.db.exec("COMMIT")
  }
  raw.db.close()
  return raw
}

// --- read-all --------------------------------------------------------------

/** A file holding `eventsInLog` events over `streamsInLog` streams, written once for every read run. */
const populatedLog = async (): Promise<TempFile> => {
  const raw = await openRaw("normal")
  raw.db.exec("BEGIN IMMEDIATE")
  for (let n = 0; n < eventsInLog; n++)
    insertRaw(raw, `stream-${n % streamsInLog}`, Math.floor(n / streamsInLog) + 1, paymentEvent(n))
  raw.db.exec("COMMIT")
  raw.db.close()
  return raw
}

const storeReadAll = (open: OpenStore): Workload => ({
  name: `store: readAll in pages of ${pageSizeEvents}`,
  operationsPerRun: eventsInLog,
  run: () => readAllInPages(open.store, pageSizeEvents, eventsInLog),
})

/** How a raw select hands back its rows: as node:sqlite's default objects, as arrays, or as arrays with their data parsed. */
type RawRows = "objects" | "arrays" | "arrays, data parsed"

/**
 * The same columns, pages and order as the store's readAll (its own column
 * list: the chain hash too, which every record carries), in plain
 * node:sqlite. With the data parsed (and the metadata, where a row has
 * any) it is what any adapter that hands back events (not text) must do at
 * least: the ceiling of readAll.
 */
const rawKeysetSelect = (db: DatabaseSync, rows: RawRows): Workload => ({
  name: `raw: keyset-paged SELECT, pages of ${pageSizeEvents}${rows === "objects" ? "" : `, rows as ${rows}`}`,
  operationsPerRun: eventsInLog,
  run: () => {
    const select = db.prepare(
      `SELECT ${eventColumns} FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?`,
    )
    select.setReturnArrays(rows !== "objects")
    let after: unknown = -1
    let read = 0
    while (true) {
      const page: ReadonlyArray<unknown> = select.all(after as number, pageSizeEvents)
      const last = page.at(-1)
      if (last === undefined) break
      if (rows === "arrays, data parsed")
        for (const row of page as ReadonlyArray<EventRow>) {
          JSON.parse(row[6])
          if (row[7] !== null) JSON.parse(row[7])
        }
      read += page.length
      after = Array.isArray(last) ? last[0] : (last as { readonly global_position: number }).global_position
    }
    if (read !== eventsInLog) throw new Error(`read ${read} rows, expected ${eventsInLog}`)
  },
})

// --- the run ---------------------------------------------------------------

const startedMs = performance.now()
console.log(`SQLite event store benchmark on ${describeMachine()}\n`)
const appendUnit = { unit: "events", counts }
const raw64 = (synchronous: RawSynchronous) =>
  rawInTransactionsOf(synchronous, writersConcurrent, `${writersConcurrent} rows per transaction (the ceiling)`)
/**
 * The 64 writers at the default ("full-offloaded") and at FULL beside the
 * ceilings its goal names, their runs alternating in one group. None of
 * them is instrumented: the latencies come from runs of their own, below.
 */
const [storeOffloaded, storeFull, rawFull64, minimal, rawOne] = await measureTogether(
  [
    concurrentAppends(storeAt("full-offloaded")),
    concurrentAppends(storeAt("full")),
    raw64("full"),
    concurrentAppends(minimalGroupCommit("full")),
    rawSingleTransaction("full"),
  ],
  counts,
)
const against = (measured: Measurement | undefined, baseline: Measurement | undefined, goalRatio?: number) =>
  comparisonOf(measured, baseline, "events", goalRatio)
const comparisons: Array<Comparison> = [
  await compare(sequentialAppends("full-offloaded"), rawTransactionPerRow("full"), appendUnit),
  await compare(sequentialAppends("full"), rawTransactionPerRow("full"), appendUnit),
  against(storeOffloaded, rawFull64, 0.85),
  against(storeFull, rawFull64),
  against(storeOffloaded, storeFull),
  against(storeOffloaded, minimal),
  against(minimal, rawFull64),
  against(rawFull64, rawOne),
  await compare(concurrentAppends(storeAt("normal")), rawSingleTransaction("normal"), {
    ...appendUnit,
    goalRatio: 0.5,
  }),
  await compare(raw64("normal"), rawSingleTransaction("normal"), appendUnit),
]

/**
 * Each append's latency and the event loop's longest stall: the same
 * workloads, instrumented, in runs of their own; and the store at its
 * default uninstrumented beside them, for what the instrumentation costs.
 */
const instrumentedRuns = <Context>(appender: Appender<Context>) => {
  const seen = underLoad()
  return { name: appender.name, seen, workload: concurrentAppends(appender, seen) }
}
const instrumented = [
  instrumentedRuns(storeAt("full-offloaded")),
  instrumentedRuns(storeAt("full")),
  instrumentedRuns(minimalGroupCommit("full")),
]
const [offloadedInstrumented, , , offloadedPlain] = await measureTogether(
  [...instrumented.map(({ workload }) => workload), concurrentAppends(storeAt("full-offloaded"))],
  instrumentedCounts,
)
comparisons.push(against(offloadedInstrumented, offloadedPlain))
const ms = (value: number) => value.toFixed(1)
const latencyTable = [
  `| ${writersConcurrent} writers, appends of 1 event | append p50 ms | append p99 ms | append max ms | longest event-loop stall, median run ms | worst run ms |`,
  "| --- | --- | --- | --- | --- | --- |",
  ...instrumented.map(({ name, seen }) => {
    const { p50, p99, max } = latenciesOf(seen.appendLatenciesMs)
    const stalls = seen.longestStallsMs
    return `| ${name} | ${ms(p50)} | ${ms(p99)} | ${ms(max)} | ${ms(median(stalls))} | ${ms(Math.max(...stalls))} |`
  }),
].join("\n")

// The append rate as the file grows: an empty file, and files of 100k and 1M events, their runs alternating.
const prefilled = await Promise.all(eventsAlreadyInFile.map(prefilledFile))
const [empty, ...grown] = await measureTogether(
  [
    concurrentAppends(storeAt("full-offloaded")),
    ...prefilled.map((file, i) => concurrentAppends(storeInto(file, eventsAlreadyInFile[i]!))),
  ],
  counts,
)
for (const measured of grown) comparisons.push(against(measured, empty))
for (const file of prefilled) removeFile(file)

const log = await populatedLog()
const reader = await openStore("full-offloaded", log)
const rawReader = new DatabaseSync(log.path, { readOnly: true })
// The store's readAll and the three raw selects of the same rows, their runs alternating in one group: each is
// measured once, and every readAll ratio below comes from the same runs.
const [readAllRuns, rawObjects, rawArrays, rawParsed] = await measureTogether(
  [
    storeReadAll(reader),
    rawKeysetSelect(rawReader, "objects"),
    rawKeysetSelect(rawReader, "arrays"),
    rawKeysetSelect(rawReader, "arrays, data parsed"),
  ],
  counts,
)
comparisons.push(
  against(readAllRuns, rawObjects, 0.7),
  against(readAllRuns, rawArrays),
  // What readAll can reach at all: the raw select of the same rows plus the parse of their data, nothing else.
  against(rawParsed, rawObjects),
  // The goal: readAll keeps within 5% of that ceiling, in the same run.
  against(readAllRuns, rawParsed, 0.95),
)
rawReader.close()
await closeStore(reader)

console.log(formatTable(comparisons))
console.log(`\n${latencyTable}`)
console.log(
  `\n${((performance.now() - startedMs) / 1_000).toFixed(1)} s; medians of ${counts.measuredRuns} runs after ${counts.warmupRuns} warm-up runs, the two sides' runs alternating.`,
)
console.log(goalsMet(comparisons) ? "Every goal met." : "Some goals MISSED: see tools/bench/README.md for why.")
