/**
 * `npm run bench -- audit`: the audit's replay of one million generated
 * events, every invariant checked, beside the raw read rate of the same
 * SQLite store measured in the same run. Goals: the replay
 * reads at least 38% of the raw rate on one core, and 50% on two worker
 * threads; its resident memory is reported.
 *
 * - The history is written once by tools/histories (seed 1, 1,000,000
 *   events) into a SQLite file in the temp folder, keyed by seed and size,
 *   and reused by later runs: writing it takes minutes.
 * - Raw read: `readAll` pages of the same store, nothing decoded (the
 *   store's own row parsing is all it does).
 * - Replays: the audit's `replayLog` on the same store and pages, every
 *   event decoded with its aggregate's codec, folded, and its aggregate's
 *   `invariants` checked after every append: into compact audit states (what
 *   `mizan-audit replay` does, retiring the streams that end), the same
 *   without retirement (before it), into the domain's states (as before the
 *   compact folds, for the record), and on two worker threads (`replay --workers 2`).
 * - The same-run ceilings: the store read and every event decoded,
 *   nothing else; the replay with every fold free (decoding, the stream table
 *   and the replay's own checks: what no compact state can take away); and one
 *   part of two in this thread, warm, without a worker's start-up or the
 *   exchange after it (the most two workers can give, a core each).
 * After the table, each in-thread line's CPU beside the raw read's (the
 * ratios a shared machine's load moves least); each parallel run: every
 * worker's start-up, read and CPU time, and the busiest worker's CPU beside
 * the raw read's (what two workers give with a core each, on a machine busy
 * with other work).
 * Then, untimed, the memory: the heap a compact replay holds at a quarter, a
 * half and all of the log, with the streams open and retired there (how it
 * grows with each), the same without retirement and the domain's at all of
 * it, and the peak resident memory of `mizan-audit replay`, with one and with
 * two workers, each in a process of its own.
 */
// Before any schema is used, as in the audit's command line (apps/audit/src/main.ts).
import "effect/schema/SchemaJITCompiler/enable"
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import {
  type AuditFold,
  aggregateOf,
  type FoldedStates,
  isClean,
  type ReplayReport,
  registry,
  replayInWorkers,
  replayLog,
  replayPageSizeEventsDefault,
  type WorkerTiming,
} from "@mizan/audit"
import { EventStore, type EventStoreShape } from "@mizan/eventsourcing"
import { generateHistory } from "@mizan/histories"
import { makeSqliteEventStore } from "@mizan/store-sqlite"
import { Effect, Result } from "effect"
import {
  type Comparison,
  collectGarbage,
  comparisonOf,
  describeMachine,
  formatTable,
  goalsMet,
  measureTogether,
  median,
  type RunCounts,
  type Workload,
} from "./harness.ts"
import { countAllInPages, forEachPage } from "./readPages.ts"

const seed = 1
const eventsInHistory = 1_000_000
/** The replay's own page size, for the raw read as well: the same pages, read alike (the raw read is as fast with 5,000). */
const pageSizeEvents = replayPageSizeEventsDefault
/** Worker threads of the parallel replay: one per core of this machine. */
const workers = 2
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

/** CPU time of this thread, ms. */
const threadCpuMs = () => {
  const used = process.threadCpuUsage()
  return (used.user + used.system) / 1_000
}

/** Each in-thread workload's CPU time of this thread, ms, run by run (the warm-up's included), by name. */
const cpuMsOfRuns = new Map<string, Array<number>>()

/** The workload, its runs' CPU time recorded in `cpuMsOfRuns`. */
const cpuRecorded = (workload: Workload): Workload => ({
  ...workload,
  run: async (context, round) => {
    const cpuBefore = threadCpuMs()
    await workload.run(context, round)
    const runs = cpuMsOfRuns.get(workload.name) ?? []
    runs.push(threadCpuMs() - cpuBefore)
    cpuMsOfRuns.set(workload.name, runs)
  },
})

/** The median CPU time of a workload's runs, ms. */
const medianCpuMs = (name: string): number => median(cpuMsOfRuns.get(name) ?? [])

const rawReadName = `raw read: readAll in pages of ${pageSizeEvents}, nothing decoded`

const rawRead = (store: EventStoreShape): Workload =>
  cpuRecorded({
    name: rawReadName,
    operationsPerRun: eventsInHistory,
    run: async () => {
      const read = await countAllInPages(store, pageSizeEvents)
      if (read < eventsInHistory) throw new Error(`read ${read} events, expected ${eventsInHistory} at least`)
    },
  })

/** Every event read and decoded with its aggregate's codec, nothing else: the read and decoding alone. */
const readAndDecode = (store: EventStoreShape): Workload =>
  cpuRecorded({
    name: "ceiling: read and decode every event, nothing folded, nothing tracked",
    operationsPerRun: eventsInHistory,
    run: async () => {
      let undecodable = 0
      await forEachPage(store, pageSizeEvents, (page) => {
        for (const record of page)
          if (Result.isFailure(aggregateOf(record.streamId)!.codec.decode(record))) undecodable++
      })
      if (undecodable > 0) throw new Error(`${undecodable} events did not decode`)
    },
  })

/**
 * A fold that costs nothing: no state, no rule. A replay of the registry with
 * it in every aggregate's place still decodes every event and keeps its
 * stream table and its own checks (versions, times): the cost no compact
 * state can take away.
 */
const freeFold: AuditFold = {
  initial: () => undefined,
  evolve: (state) => state,
  invariants: () => [],
  status: () => "FOLDED_FREE",
  money: () => ({}),
}
const registryFoldingFree = registry.map((entry) => ({ ...entry, compact: freeFold }))

const expectClean = (report: ReplayReport) => {
  if (!isClean(report) || report.events !== eventsInHistory)
    throw new Error("the generated history does not replay clean")
}

/** How a replay in this thread folds: compact states retiring ended streams (the replay's own), without retiring, or the domain's. */
type Folding = "retiring" | "keeping" | "domain"

const optionsOf = (folding: Folding): { states: FoldedStates; retire: boolean } =>
  folding === "domain" ? { states: "domain", retire: false } : { states: "compact", retire: folding === "retiring" }

const replayInThread = (store: EventStoreShape, folding: Folding): Workload =>
  cpuRecorded({
    name: {
      retiring: "audit replay, one core: compact fold, every invariant, ended streams retired",
      keeping: "audit replay, one core, compact, every stream kept open (before retirement)",
      domain: "audit replay, one core, the domain's states (before compact folds)",
    }[folding],
    operationsPerRun: eventsInHistory,
    run: () =>
      Effect.runPromise(
        Effect.map(
          Effect.provideService(replayLog({ pageSizeEvents, ...optionsOf(folding) }), EventStore, store),
          (replayer) => expectClean(replayer.report()),
        ),
      ),
  })

/** The replay with every fold free (`freeFold`): what the goal on one core is set against. */
const replayFoldingFree = (store: EventStoreShape): Workload =>
  cpuRecorded({
    name: "ceiling: audit replay, one core, every fold free (decoding, stream table, the replay's checks)",
    operationsPerRun: eventsInHistory,
    run: () =>
      Effect.runPromise(
        Effect.map(
          Effect.provideService(
            replayLog({ pageSizeEvents, states: "compact", registry: registryFoldingFree }),
            EventStore,
            store,
          ),
          (replayer) => {
            if (replayer.part().events !== eventsInHistory) throw new Error("the free fold did not replay every event")
          },
        ),
      ),
  })

/**
 * One part of a two-worker replay in this thread, warm: the log read whole,
 * the part's streams folded compact; no worker's start-up, no exchange.
 */
const onePartInThread = (store: EventStoreShape): Workload =>
  cpuRecorded({
    name: `ceiling: one part of ${workers} in this thread, warm (no start-up, no exchange)`,
    operationsPerRun: eventsInHistory,
    run: () =>
      Effect.runPromise(
        Effect.provideService(
          replayLog({ pageSizeEvents, states: "compact", partition: { index: 0, count: workers } }),
          EventStore,
          store,
        ),
      ),
  })

/** Each parallel run: its time, and where each worker's time went until it had read the log. */
const workerRuns: Array<{ readonly wallMs: number; readonly timings: ReadonlyArray<WorkerTiming> }> = []

const replayOnWorkers: Workload = {
  name: `audit replay, ${workers} worker threads (streams split by hash)`,
  operationsPerRun: eventsInHistory,
  run: async () => {
    const startedMs = performance.now()
    let timings: ReadonlyArray<WorkerTiming> = []
    const report = await Effect.runPromise(
      replayInWorkers({
        store: { _tag: "Sqlite", path: historyPath },
        workers,
        pageSizeEvents,
        onWorkersRead: (read) => {
          timings = read
        },
      }),
    )
    workerRuns.push({ wallMs: performance.now() - startedMs, timings })
    expectClean(report)
  },
}

/**
 * Where the parallel replay's time went, run by run (the warm-up first), and
 * its CPU beside the raw read's: the busiest worker's CPU time is its time on
 * a core of its own, whatever else the machine runs.
 */
const workerBreakdown = (): Array<string> => {
  const s = (ms: number) => `${(ms / 1_000).toFixed(2)} s`
  const lines = workerRuns.map(({ wallMs, timings }, run) => {
    const workersText = timings.map(
      (t, i) => `worker ${i + 1}: start-up ${s(t.startMs)}, read and fold ${s(t.readMs)}, CPU ${s(t.cpuMs)}`,
    )
    const lastRead = Math.max(...timings.map((t) => t.startMs + t.readMs))
    return `  run ${run}: ${s(wallMs)}; ${workersText.join("; ")}; after the last had read (exchange, merge, end): ${s(wallMs - lastRead)}`
  })
  const busiestCpuMs = median(workerRuns.map(({ timings }) => Math.max(...timings.map((t) => t.cpuMs))))
  const rawCpuMs = medianCpuMs(rawReadName)
  lines.push(
    `  CPU per event: raw read ${((rawCpuMs * 1_000) / eventsInHistory).toFixed(2)} µs, the busiest worker ${((busiestCpuMs * 1_000) / eventsInHistory).toFixed(2)} µs (medians): ${(rawCpuMs / busiestCpuMs).toFixed(2)} of the raw rate with a free core per worker, until the workers have read (the exchange after it not counted)`,
  )
  return lines
}

const mib = (bytes: number) => Math.round(bytes / 2 ** 20)

/**
 * The heap a replay folding as `folding` holds once it has read the log up
 * to `position` (its streams' states still referenced), less the heap
 * before it, per stream: what the replay's memory grows by with each
 * stream; and how many of the streams are open, and retired.
 */
const heapHeldAt = async (store: EventStoreShape, folding: Folding, position: number) => {
  collectGarbage()
  const before = process.memoryUsage().heapUsed
  const replayer = await Effect.runPromise(
    Effect.provideService(
      replayLog({ pageSizeEvents, ...optionsOf(folding), cut: { _tag: "Position", position: BigInt(position) } }),
      EventStore,
      store,
    ),
  )
  collectGarbage()
  const heldBytes = process.memoryUsage().heapUsed - before
  // What the open streams' states hold: the heap they free once dropped (the measurement ends the replayer's use).
  const open = [...replayer.streams.values()].filter((tracked) => !replayer.streams.isRetired(tracked.streamId))
  collectGarbage()
  const withOpenStates = process.memoryUsage().heapUsed
  for (const tracked of open) tracked.state = undefined
  collectGarbage()
  const openStatesBytes = withOpenStates - process.memoryUsage().heapUsed
  return {
    events: position,
    streams: replayer.streams.size,
    open: replayer.streams.size - replayer.streams.retired,
    retired: replayer.streams.retired,
    heapHeldBytes: heldBytes,
    openStatesBytes,
    heapMiB: mib(heldBytes),
    bytesPerStream: Math.round(heldBytes / replayer.streams.size),
  }
}

/**
 * The peak resident memory of `mizan-audit replay` over the history, in a
 * process of its own (so nothing of this one counts): its `VmHWM` in
 * /proc, read every 100 ms until it ends.
 */
const peakRssOfCli = (extraArguments: ReadonlyArray<string>) =>
  new Promise<number>((resolve, reject) => {
    const cli = join(import.meta.dirname, "..", "..", "..", "apps", "audit", "src", "main.ts")
    const child = spawn(
      process.execPath,
      [cli, "replay", "--json", "--store", `sqlite:${historyPath}`, ...extraArguments],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    )
    let peakKiB = 0
    const timer = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+([0-9]+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))
        if (hwm !== null) peakKiB = Math.max(peakKiB, Number(hwm[1]))
      } catch {
        // The process has just ended.
      }
    }, 100)
    child.on("error", reject)
    child.on("exit", (code) => {
      clearInterval(timer)
      if (code !== 0) reject(new Error(`mizan-audit replay ${extraArguments.join(" ")} exited with ${code}`))
      else resolve(Math.round(peakKiB / 1024))
    })
  })

const startedMs = performance.now()
const loadAverage = () =>
  loadavg()
    .map((load) => load.toFixed(1))
    .join(", ")
console.log(`Audit replay benchmark on ${describeMachine()}; load average ${loadAverage()}\n`)
const summary = await ensureHistory()
const { comparisons, memory } = await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const store = yield* makeSqliteEventStore(historyPath)
      const [raw, retiring, keeping, domain, parallel, decoded, foldingFree, onePart] = yield* Effect.promise(() =>
        measureTogether(
          [
            rawRead(store),
            replayInThread(store, "retiring"),
            replayInThread(store, "keeping"),
            replayInThread(store, "domain"),
            replayOnWorkers,
            readAndDecode(store),
            replayFoldingFree(store),
            onePartInThread(store),
          ],
          counts,
        ),
      )
      const against = (measured: typeof raw, goalRatio?: number): Comparison =>
        comparisonOf(measured, raw, "events", goalRatio)
      const comparisons = [
        against(retiring, 0.38),
        against(parallel, 0.5),
        against(keeping),
        against(domain),
        comparisonOf(retiring, keeping, "events"),
        against(decoded),
        against(foldingFree),
        against(onePart),
        comparisonOf(retiring, foldingFree, "events"),
      ]
      const memory = {
        growth: [
          yield* Effect.promise(() => heapHeldAt(store, "retiring", eventsInHistory / 4)),
          yield* Effect.promise(() => heapHeldAt(store, "retiring", eventsInHistory / 2)),
          yield* Effect.promise(() => heapHeldAt(store, "retiring", eventsInHistory)),
        ],
        keeping: yield* Effect.promise(() => heapHeldAt(store, "keeping", eventsInHistory)),
        domain: yield* Effect.promise(() => heapHeldAt(store, "domain", eventsInHistory)),
        peakRssMiB: {
          oneCore: yield* Effect.promise(() => peakRssOfCli([])),
          workers: yield* Effect.promise(() => peakRssOfCli(["--workers", String(workers)])),
        },
      }
      return { comparisons, memory }
    }),
  ),
)
console.log(`history: ${summary}\n`)
console.log(formatTable(comparisons))
console.log("\nCPU of this thread per event, medians, and the raw read's CPU over each line's:")
const rawCpuMs = medianCpuMs(rawReadName)
for (const name of cpuMsOfRuns.keys()) {
  const cpuMs = medianCpuMs(name)
  console.log(`  ${name}: ${((cpuMs * 1_000) / eventsInHistory).toFixed(2)} µs, ${(rawCpuMs / cpuMs).toFixed(2)}`)
}
console.log(`\n${workers} workers, run by run (the first the warm-up):`)
for (const line of workerBreakdown()) console.log(line)
console.log("\nheap held by a replay at a cut of the log (its states referenced), in MiB and bytes per stream:")
for (const at of memory.growth) console.log(`  compact states, ended streams retired, ${JSON.stringify(at)}`)
console.log(`  compact states, every stream kept open,  ${JSON.stringify(memory.keeping)}`)
console.log(`  domain states,  ${JSON.stringify(memory.domain)}`)
// An open stream is its entry (what a replay keeping every stream open holds beside the states, per stream)
// and its state; a retired one holds the rest.
const all = memory.growth[memory.growth.length - 1]!
const entryBytes = (memory.keeping.heapHeldBytes - memory.keeping.openStatesBytes) / memory.keeping.streams
const openBytes = entryBytes + all.openStatesBytes / all.open
console.log(
  `  at all of the log: open streams ${((100 * all.open) / all.streams).toFixed(1)}% of ${all.streams}; an open stream ${Math.round(openBytes)} bytes (its entry ${Math.round(entryBytes)}, its state ${Math.round(all.openStatesBytes / all.open)}), a retired one ${Math.round((all.heapHeldBytes - openBytes * all.open) / all.retired)} bytes`,
)
console.log(
  `peak resident memory of mizan-audit replay over the whole history, a process of its own: ${memory.peakRssMiB.oneCore} MiB; with --workers ${workers}: ${memory.peakRssMiB.workers} MiB`,
)
console.log(
  `\n${((performance.now() - startedMs) / 1_000).toFixed(1)} s, load average at the end ${loadAverage()}; medians of ${counts.measuredRuns} runs after ${counts.warmupRuns} warm-up run, the workloads' runs alternating.`,
)
console.log(goalsMet(comparisons) ? "Every goal met." : "Goal MISSED: see apps/audit/README.md, Performance.")
