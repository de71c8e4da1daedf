/** The messages between a parallel replay (parallelReplay.ts) and its worker threads (replayWorker.ts). */

import type { StoreSetting } from "../common/stores.ts"
import type { StreamFacts } from "./crossStream.ts"
import type { Cut, Partition } from "./replay.ts"

/** Where a worker's time went until it had read the log (README.md, Performance, breaks a parallel replay down with it). */
export interface WorkerTiming {
  /** From the thread's start until its modules were loaded and it began to read. */
  readonly startMs: number
  /** Reading the log and folding its streams. */
  readonly readMs: number
  /** The CPU time the thread used until it had read the log, start-up included (the exchange after it not). */
  readonly cpuMs: number
}

/** What a worker is started with. */
export interface ReplayWorkerData {
  readonly store: StoreSetting
  /** Opens a sealed store's fields, as the command line's `replay` does (stores.ts, layerOpenedStore). */
  readonly masterKeyFile: string
  readonly partition: Partition
  readonly cut: Cut
  readonly pageSizeEvents: number | undefined
  readonly findingsListedMax: number | undefined
  /** When the parent started the thread, ms since the epoch (`performance.timeOrigin + performance.now()`). */
  readonly startedAtMs: number
}

/** A question of the parent to a worker that has read the log: one of `ReplayPart`'s methods. */
export type ParentMessage =
  | { readonly id: number; readonly method: "part" | "wanted" }
  | { readonly id: number; readonly method: "factsOf"; readonly streamIds: ReadonlyArray<string> }
  | { readonly id: number; readonly method: "crossStream"; readonly facts: ReadonlyArray<StreamFacts | undefined> }

export type WorkerMessage =
  /** Events read so far (every worker reads the whole log). */
  | { readonly _tag: "Progress"; readonly read: number }
  /** The log is read: the worker answers questions now. */
  | { readonly _tag: "Read"; readonly timing: WorkerTiming }
  /** The replay could not run (the store could not be opened or read), in the operator's words. */
  | { readonly _tag: "Failed"; readonly detail: string }
  | { readonly _tag: "Answer"; readonly id: number; readonly value: unknown }
  /** A question the worker could not answer: what went wrong. */
  | { readonly _tag: "AnswerFailed"; readonly id: number; readonly detail: string }
