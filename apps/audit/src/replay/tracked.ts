/**
 * The streams a replay holds, in the shapes its parts share: one stream as
 * the replay folds it (`TrackedStream`), all of them as the library's readers
 * see them (`TrackedStreams`), and the share of the streams a worker of a
 * parallel replay holds (`Partition`).
 */

import type { GlobalPosition } from "@mizan/eventsourcing"
import type { AuditFold } from "../model/auditFold.ts"
import type { AuditedAggregate } from "../model/registry.ts"
import type { EventPlace } from "./replayReport.ts"
import { workerOfStream } from "./streamTable.ts"

/** One stream as the replay holds it. */
export interface TrackedStream {
  readonly streamId: string
  /** Undefined for a stream no aggregate of the registry owns. */
  readonly aggregate: AuditedAggregate | undefined
  /** The fold its state is made by: the aggregate's domain fold or its compact one. */
  readonly fold: AuditFold | undefined
  state: unknown
  /** The version of the last event read (0 before the first). */
  version: number
  lastPosition: GlobalPosition
  lastRecordedAt: number
  /** The rules broken after the last event, as `rule + detail` keys; undefined while none is. */
  broken: ReadonlySet<string> | undefined
  /** Events read (by every replayer of the log) before this stream's first. */
  readonly firstRead: number
}

/**
 * The streams a replay holds, by id, in the order they were first read. A
 * retired stream is answered as a `TrackedStream` made for the asking.
 */
export interface TrackedStreams {
  /** Every stream read, open or retired. */
  readonly size: number
  /** The streams a compact replay has retired (and not revived). */
  readonly retired: number
  readonly get: (streamId: string) => TrackedStream | undefined
  readonly has: (streamId: string) => boolean
  readonly isRetired: (streamId: string) => boolean
  readonly values: () => IterableIterator<TrackedStream>
}

/** The share of the streams one worker of a parallel replay holds: those whose id hashes to `index` modulo `count`. */
export interface Partition {
  readonly index: number
  readonly count: number
}

/** Whether the replayer of `partition` folds a stream: every stream without one. */
export const holderOf =
  (partition: Partition | undefined) =>
  (streamId: string): boolean =>
    partition === undefined || workerOfStream(streamId, partition.count) === partition.index

/** Where a stream's last event stands, as a finding names it. */
export const placeOf = (tracked: TrackedStream): EventPlace => ({
  streamId: tracked.streamId,
  streamVersion: tracked.version,
  globalPosition: tracked.lastPosition,
})
