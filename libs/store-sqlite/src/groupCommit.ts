/**
 * Group commit: appends that arrive while the writer is busy (or within the
 * same turn of the event loop) queue up, and the one writer commits them
 * together in a single transaction, so that one sync of the log to disk
 * acknowledges many appends. Durability stays per append: nobody hears
 * "appended" before the transaction holding their events has committed and
 * is durable (durability.ts: under "full-offloaded", after the log's next
 * sync in the thread pool, while the next batches already commit).
 *
 * Each append is still checked against its own expected version, in queue
 * order, inside the write transaction (so appends to one stream in one batch
 * see each other), and an append that fails (a version conflict, a
 * duplicate event id) is undone alone, under its own savepoint, while the
 * rest of the batch commits. The unique index on (stream_id, stream_version)
 * is the second guard behind the check.
 *
 * There is one connection and node:sqlite is synchronous, so a batch runs
 * from BEGIN to COMMIT without yielding: no read on this connection ever
 * sees a transaction half done, and positions are handed out in commit
 * order, which keeps the global log gap-free for every reader (README.md).
 */
import type { DatabaseSync } from "node:sqlite"
import { type BatchListener, type BatchWriter, commitBatch, prepareWriterStatements } from "./batchWrite.ts"
import type { Durability } from "./durability.ts"
import { eventsOf, type PendingAppend } from "./pendingAppend.ts"
import type { Chaining } from "./rows.ts"
import { makeStreamVersions } from "./streamVersions.ts"

export type { AppendOutcome, EncodedPart, PendingAppend } from "./pendingAppend.ts"

export interface GroupCommitStats {
  /** Write transactions committed. */
  readonly transactions: number
  /** Appends acknowledged as written. */
  readonly appends: number
  /** The most appends one transaction held. */
  readonly largestBatchAppends: number
}

export interface GroupCommitWriter {
  readonly submit: (append: PendingAppend) => void
  /** Commits whatever is queued now (used before the connection closes). */
  readonly flush: () => void
  readonly stats: () => GroupCommitStats
}

export interface GroupCommitOptions {
  /** The most events one transaction holds; a longer queue is committed in several transactions, in order. */
  readonly appendBatchMaxEvents: number
  /** How many streams' versions the writer remembers between transactions. */
  readonly streamVersionCacheMaxStreams: number
  /** For error messages: which file this writer writes. */
  readonly path: string
  /** When a committed batch may be acknowledged. */
  readonly durability: Durability
  /** Called after every batch is acknowledged (wakes the followers). */
  readonly onAcknowledged: () => void
  /** How each event's chain hash is computed (rows.ts: `chained`, but in the sealing benchmark). */
  readonly chaining: Chaining
}

/**
 * The appends at the head of `queue` that one transaction takes: until the
 * batch holds `maxEvents` events (and at least one append), the cancelled
 * ones left out; and the rest of the queue.
 */
export const takeBatch = (
  queue: ReadonlyArray<PendingAppend>,
  maxEvents: number,
): { readonly batch: Array<PendingAppend>; readonly rest: Array<PendingAppend> } => {
  let events = 0
  let count = 0
  while (count < queue.length && (count === 0 || events + eventsOf(queue[count]!) <= maxEvents)) {
    events += eventsOf(queue[count]!)
    count++
  }
  return { batch: queue.slice(0, count).filter((append) => !append.cancelled), rest: queue.slice(count) }
}

export const makeGroupCommitWriter = (db: DatabaseSync, options: GroupCommitOptions): GroupCommitWriter => {
  const writer: BatchWriter = {
    db,
    statements: prepareWriterStatements(db),
    streamVersions: makeStreamVersions(db, options.streamVersionCacheMaxStreams),
    path: options.path,
    durability: options.durability,
    chaining: options.chaining,
  }
  let queue: Array<PendingAppend> = []
  let flushScheduled = false
  /** True while `flush` runs: an acknowledgement given inside it must not start another. */
  let flushing = false
  const counts = { transactions: 0, appends: 0, largestBatchAppends: 0 }

  const listener: BatchListener = {
    committed: (batch, written) => {
      counts.transactions++
      counts.appends += written
      counts.largestBatchAppends = Math.max(counts.largestBatchAppends, batch.length)
    },
    acknowledged: () => {
      options.onAcknowledged()
      // Acknowledged later, from the sync's callback: the writers it woke may have queued their next appends
      // already, and committing them now saves waiting a turn of the event loop for the scheduled flush.
      if (!flushing && queue.length > 0) flush()
    },
  }

  const flush = () => {
    flushScheduled = false
    flushing = true
    try {
      while (queue.length > 0) {
        const { batch, rest } = takeBatch(queue, options.appendBatchMaxEvents)
        queue = rest
        if (batch.length > 0) commitBatch(writer, batch, listener)
      }
    } finally {
      flushing = false
    }
  }

  return {
    submit: (append) => {
      queue.push(append)
      if (flushScheduled) return
      flushScheduled = true
      // After the current turn of the event loop, so that every append submitted in it joins the batch.
      setImmediate(flush)
    },
    flush,
    stats: () => ({ ...counts }),
  }
}
