/**
 * A replay on several cores: each worker reads the whole log and folds the
 * streams whose id hashes to it (`Partition`), every event still ending the
 * append before it, so each worker judges its streams' appends as one
 * replayer would. Their parts are then put together into the report one
 * replayer would give (replayReport.ts), and the rules that span streams are
 * answered across workers (crossStream.ts): each worker names the streams its
 * rules ask about that other workers hold (its own it answers itself), the
 * worker holding each says what the rules read of it, and the asker judges.
 *
 * `reportOfParts` speaks to its workers through `ReplayPart`: in this
 * process (`localPart`, which the tests use to check the protocol against one
 * replayer) or in a worker thread (replayWorker.ts).
 */

import { tmpdir } from "node:os"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import { Effect } from "effect"
import { AuditError, masterKeyFileDefault, type StoreSetting } from "../common/stores.ts"
import { registry } from "../model/registry.ts"
import { type CrossStreamFinding, inReportOrder, type StreamFacts } from "./crossStream.ts"
import { type Cut, everything, findingsListedMaxDefault, type Replayer } from "./replay.ts"
import { assembleReport, type PartialReport, type ReplayReport } from "./replayReport.ts"
import type { ParentMessage, ReplayWorkerData, WorkerMessage, WorkerTiming } from "./replayWorkerProtocol.ts"
import { workerOfStream } from "./streamTable.ts"

/** One worker's side of a parallel replay, once it has read the log. */
export interface ReplayPart {
  readonly part: () => Promise<PartialReport>
  readonly wanted: () => Promise<ReadonlyArray<string>>
  readonly factsOf: (streamIds: ReadonlyArray<string>) => Promise<ReadonlyArray<StreamFacts | undefined>>
  /** The facts are the ones of `wanted()`, in its order. */
  readonly crossStream: (facts: ReadonlyArray<StreamFacts | undefined>) => Promise<ReadonlyArray<CrossStreamFinding>>
}

/** A replayer of this process as a part. */
export const localPart = (replayer: Replayer): ReplayPart => {
  let wanted: ReadonlyArray<string> = []
  return {
    part: async () => replayer.part(),
    wanted: async () => {
      wanted = replayer.wanted()
      return wanted
    },
    factsOf: async (streamIds) => replayer.factsOf(streamIds),
    crossStream: async (facts) => {
      const byStream = new Map(wanted.map((streamId, i) => [streamId, facts[i]]))
      return replayer.crossStream((streamId) => byStream.get(streamId))
    },
  }
}

/** The report of a log replayed by `parts`, part `i` holding the streams of partition `i` of `parts.length`. */
export const reportOfParts = async (
  parts: ReadonlyArray<ReplayPart>,
  kinds: ReadonlyArray<string>,
  listedMax: number,
): Promise<ReplayReport> => {
  // A part does not depend on the rules that span streams: asked together with what they want, one round trip less.
  const [partials, wanted] = await Promise.all([
    Promise.all(parts.map((part) => part.part())),
    Promise.all(parts.map((part) => part.wanted())),
  ])
  const asked = parts.map(() => new Set<string>())
  for (const streamIds of wanted)
    for (const streamId of streamIds) asked[workerOfStream(streamId, parts.length)]!.add(streamId)
  const facts = new Map<string, StreamFacts | undefined>()
  await Promise.all(
    parts.map(async (part, i) => {
      const streamIds = [...asked[i]!]
      const answers = await part.factsOf(streamIds)
      for (const [j, streamId] of streamIds.entries()) facts.set(streamId, answers[j])
    }),
  )
  const crossStream = await Promise.all(
    parts.map((part, i) => part.crossStream(wanted[i]!.map((streamId) => facts.get(streamId)))),
  )
  return assembleReport(partials, inReportOrder(crossStream.flat()), kinds, listedMax)
}

/** What a part needs of a worker thread (a stand-in in tests). */
export type PartWorker = Pick<Worker, "postMessage" | "on">

/**
 * A worker thread that has read the log, as a part: each question a promise
 * that the worker's answer settles, or its failure to answer, or its end (an
 * error, an exit, running out of memory), so that no question waits forever.
 */
export const workerPart = (worker: PartWorker): ReplayPart => {
  const pending = new Map<
    number,
    { readonly resolve: (value: unknown) => void; readonly reject: (error: Error) => void }
  >()
  const failAll = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error)
    pending.clear()
  }
  worker.on("message", (message: WorkerMessage) => {
    if (message._tag !== "Answer" && message._tag !== "AnswerFailed") return
    const waiting = pending.get(message.id)
    pending.delete(message.id)
    if (message._tag === "Answer") waiting?.resolve(message.value)
    else waiting?.reject(new AuditError({ detail: `a replay worker could not answer: ${message.detail}` }))
  })
  worker.on("error", failAll)
  worker.on("exit", (code: number) => failAll(new Error(`it stopped with exit code ${code} before it answered`)))
  let asked = 0
  const ask = <A>(message: DistributiveOmit<ParentMessage, "id">): Promise<A> =>
    new Promise((resolve, reject) => {
      const id = asked++
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      worker.postMessage({ ...message, id })
    })
  return {
    part: () => ask({ method: "part" }),
    wanted: () => ask({ method: "wanted" }),
    factsOf: (streamIds) => ask({ method: "factsOf", streamIds }),
    crossStream: (facts) => ask({ method: "crossStream", facts }),
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

export interface ParallelReplayOptions {
  readonly store: StoreSetting
  /** The master key file that opens a sealed store's fields, as the command line names it (stores.ts). */
  readonly masterKeyFile?: string
  /** Worker threads, each folding the streams of one hash partition (2 for the second core). */
  readonly workers: number
  readonly cut?: Cut
  readonly pageSizeEvents?: number
  readonly findingsListedMax?: number
  /** Called as the slowest worker reads, with the number of events it has read. */
  readonly onProgress?: (eventsRead: number) => void
  /** Called once every worker has read the log, with where each one's time went (the benchmark prints it). */
  readonly onWorkersRead?: (timings: ReadonlyArray<WorkerTiming>) => void
}

/**
 * The environment of a replay worker: this process's, with Node's module
 * compile cache on (NODE_COMPILE_CACHE, unless already set: Node's own
 * folder in the temp directory). A worker loads and compiles the domain, the
 * stores and Effect afresh, about 0.4 s of CPU; from the cache, about 0.25 s
 * (README.md, Performance). Only the variable reaches a worker's module
 * loading: `module.enableCompileCache()` in this process does not.
 */
const workerEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), "node-compile-cache"),
})

/** The worker's module beside this one: its source in the workspace, its build where the package is installed. */
const replayWorkerFile = new URL(`./replayWorker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url)

/**
 * Replays the store's log on `workers` threads and answers the report one
 * replayer would give. Each worker opens the store itself and reads the whole
 * log (the store's read is the cheaper part of a replay: README.md,
 * Performance); the workers are ended once the report is made, or the first
 * of them fails.
 */
export const replayInWorkers = (options: ParallelReplayOptions): Effect.Effect<ReplayReport, AuditError> =>
  Effect.acquireUseRelease(
    Effect.sync(() =>
      Array.from({ length: options.workers }, (_, index) => {
        const workerData: ReplayWorkerData = {
          store: options.store,
          masterKeyFile: options.masterKeyFile ?? masterKeyFileDefault,
          partition: { index, count: options.workers },
          cut: options.cut ?? everything,
          pageSizeEvents: options.pageSizeEvents,
          findingsListedMax: options.findingsListedMax,
          startedAtMs: performance.timeOrigin + performance.now(),
        }
        return new Worker(replayWorkerFile, { workerData, env: workerEnv() })
      }),
    ),
    (workers) =>
      Effect.tryPromise({
        try: async () => {
          const read = workers.map(() => 0)
          const timings: Array<WorkerTiming> = []
          const parts = await Promise.all(
            workers.map(
              (worker, i) =>
                new Promise<ReplayPart>((resolve, reject) => {
                  worker.on("error", reject)
                  // A worker that ends before it has read the log (once it has, this is a no-op).
                  worker.on("exit", (code) =>
                    reject(new Error(`it stopped with exit code ${code} before reading the log`)),
                  )
                  worker.on("message", (message: WorkerMessage) => {
                    switch (message._tag) {
                      case "Progress":
                        read[i] = message.read
                        options.onProgress?.(Math.min(...read))
                        return
                      case "Read":
                        timings[i] = message.timing
                        return resolve(workerPart(worker))
                      case "Failed":
                        return reject(new AuditError({ detail: message.detail }))
                    }
                  })
                }),
            ),
          )
          options.onWorkersRead?.(timings)
          return reportOfParts(
            parts,
            registry.map((entry) => entry.kind),
            options.findingsListedMax ?? findingsListedMaxDefault,
          )
        },
        catch: (error) =>
          error instanceof AuditError
            ? error
            : new AuditError({
                detail: `a replay worker failed: ${error instanceof Error ? error.message : String(error)}`,
              }),
      }),
    (workers) => Effect.promise(() => Promise.all(workers.map((worker) => worker.terminate()))),
  )
