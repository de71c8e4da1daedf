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
import type { DatabaseSync, StatementSync } from "node:sqlite"
import {
  type AppendResult,
  type ExpectedVersion,
  type RecordedEvent,
  StoreError,
  VersionConflict,
  versionMatches,
} from "@mizan/eventsourcing"
import { Effect } from "effect"
import type { Durability, WrittenPositions } from "./durability.ts"
import { type Chaining, chainedOfEncoded, type EncodedEvent } from "./rows.ts"
import { breaksUniqueConstraint, storeErrorFrom } from "./sqliteErrors.ts"
import { makeStreamVersions, type StreamHead } from "./streamVersions.ts"

/** Each part's result, in the parts' order; or why none was written. */
export type AppendOutcome = Effect.Effect<ReadonlyArray<AppendResult>, VersionConflict | StoreError>

/** One stream's part of a pending append, its events encoded. */
export interface EncodedPart {
  readonly streamId: string
  readonly expected: ExpectedVersion
  readonly events: ReadonlyArray<EncodedEvent>
}

/** An append waiting for the writer: one part (`append`) or several (`appendMany`), written all or none. */
export interface PendingAppend {
  readonly parts: ReadonlyArray<EncodedPart>
  readonly recordedAt: number
  /** Hands the append its outcome; called once, after its transaction ended and, if it committed, became durable. */
  readonly settle: (outcome: AppendOutcome) => void
  /** Set when the caller was interrupted before the append was written: it is then skipped. */
  cancelled: boolean
}

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

interface WriterStatements {
  readonly begin: StatementSync
  readonly commit: StatementSync
  readonly rollback: StatementSync
  readonly savepoint: StatementSync
  readonly release: StatementSync
  readonly rollbackToSavepoint: StatementSync
  readonly insert: StatementSync
}

const prepareWriterStatements = (db: DatabaseSync): WriterStatements => ({
  // IMMEDIATE takes the write lock at BEGIN, so the versions read below cannot change before COMMIT.
  begin: db.prepare("BEGIN IMMEDIATE"),
  commit: db.prepare("COMMIT"),
  rollback: db.prepare("ROLLBACK"),
  savepoint: db.prepare("SAVEPOINT append_"),
  release: db.prepare("RELEASE append_"),
  rollbackToSavepoint: db.prepare("ROLLBACK TO append_"),
  insert: db.prepare(
    "INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at, chain_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ),
})

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

interface WrittenBatch {
  /** One per append of the batch, in its order. */
  readonly outcomes: ReadonlyArray<AppendOutcome>
  /** The streams' heads as the batch leaves them. */
  readonly heads: ReadonlyMap<string, StreamHead>
  /** How many of its appends were written. */
  readonly written: number
  /** The global positions of its first and last events written (0 when it wrote none). */
  readonly positions: WrittenPositions
}

/** How many events an append carries, over all its parts. */
const eventsOf = (append: PendingAppend): number => {
  let events = 0
  for (const part of append.parts) events += part.events.length
  return events
}

export const makeGroupCommitWriter = (db: DatabaseSync, options: GroupCommitOptions): GroupCommitWriter => {
  const statements = prepareWriterStatements(db)
  const streamVersions = makeStreamVersions(db, options.streamVersionCacheMaxStreams)
  let queue: Array<PendingAppend> = []
  let flushScheduled = false
  /** True while `flush` runs: an acknowledgement given inside it must not start another. */
  let flushing = false
  let transactions = 0
  let appends = 0
  let largestBatchAppends = 0

  /** Inserts one part's events after its stream's head, chaining each to the one before; throws what SQLite threw. */
  const insertPart = (
    part: EncodedPart,
    head: StreamHead,
    recordedAt: number,
  ): AppendResult & { readonly chainHash: string; readonly lastPosition: number } => {
    const records: Array<RecordedEvent> = []
    let previous = head.chainHash
    let lastPosition = 0
    for (const [i, event] of part.events.entries()) {
      const streamVersion = head.version + i + 1
      const { fields, chainHash } = chainedOfEncoded(
        event,
        part.streamId,
        streamVersion,
        recordedAt,
        previous,
        options.chaining.hash,
      )
      const { lastInsertRowid } = statements.insert.run(
        event.id,
        part.streamId,
        streamVersion,
        event.type,
        event.schemaVersion,
        event.dataJson,
        event.metadataJson,
        recordedAt,
        chainHash,
      )
      lastPosition = Number(lastInsertRowid)
      records.push({ ...fields, globalPosition: BigInt(lastPosition), chainHash })
      previous = chainHash
    }
    return { streamVersion: head.version + part.events.length, records, chainHash: previous, lastPosition }
  }

  /** Why SQLite refused one part's insert, in the port's words. */
  const insertFailure = (error: unknown, part: EncodedPart): VersionConflict | StoreError => {
    if (breaksUniqueConstraint(error, "events.stream_id, events.stream_version")) {
      // The second guard held where the version check should have: trust no remembered version any more.
      streamVersions.forget()
      return new VersionConflict({
        streamId: part.streamId,
        expected: part.expected,
        actual: streamVersions.committedHead(part.streamId).version,
      })
    }
    if (breaksUniqueConstraint(error, "events.event_id"))
      return new StoreError({
        reason: "InvalidRequest",
        detail: `an event id of this append to ${part.streamId} is already recorded; event ids are unique`,
      })
    return storeErrorFrom(error, `appending to ${part.streamId} in ${options.path}`)
  }

  /** Each part's stream head, if every part's stream is at the version it expects; else the first conflict. */
  const headsOf = (
    append: PendingAppend,
    heads: ReadonlyMap<string, StreamHead>,
  ): ReadonlyArray<StreamHead> | VersionConflict => {
    const partHeads: Array<StreamHead> = []
    for (const { streamId, expected } of append.parts) {
      const head = heads.get(streamId) ?? streamVersions.committedHead(streamId)
      if (!versionMatches(expected, head.version))
        return new VersionConflict({ streamId, expected, actual: head.version })
      partHeads.push(head)
    }
    return partHeads
  }

  /**
   * Checks and inserts each append of `batch` in the open transaction, each
   * all or none. Throws only when the transaction itself is lost.
   */
  const writeBatch = (batch: ReadonlyArray<PendingAppend>): WrittenBatch => {
    const outcomes: Array<AppendOutcome> = []
    // Heads as this transaction leaves them, so that appends to one stream in one batch see (and chain to) each other.
    const heads = new Map<string, StreamHead>()
    let written = 0
    let first = 0
    let last = 0
    for (const append of batch) {
      const partHeads = headsOf(append, heads)
      if (partHeads instanceof VersionConflict) {
        outcomes.push(Effect.fail(partHeads))
        continue
      }
      // One INSERT is atomic on its own (a failed statement is undone alone), so only a longer append needs a savepoint.
      const savepoint = append.parts.length > 1 || append.parts[0]!.events.length > 1
      if (savepoint) statements.savepoint.run()
      const results: Array<AppendResult> = []
      const newHeads: Array<StreamHead> = []
      let lastPosition = 0
      let index = 0
      try {
        for (; index < append.parts.length; index++) {
          const inserted = insertPart(append.parts[index]!, partHeads[index]!, append.recordedAt)
          const { chainHash, lastPosition: partLastPosition, ...result } = inserted
          results.push(result)
          newHeads.push({ version: result.streamVersion, chainHash })
          lastPosition = partLastPosition
        }
        if (savepoint) statements.release.run()
        for (const [i, head] of newHeads.entries()) heads.set(append.parts[i]!.streamId, head)
        outcomes.push(Effect.succeed(results))
        written++
        // The rowids of one append are consecutive: this connection holds the write lock.
        if (first === 0) first = lastPosition - eventsOf(append) + 1
        last = lastPosition
      } catch (error) {
        // A full disk or an I/O error can end the whole transaction; then nothing of the batch stands.
        if (!db.isTransaction) throw error
        if (savepoint) {
          statements.rollbackToSavepoint.run()
          statements.release.run()
        }
        // The part whose insert failed (the last one when the savepoint's release did).
        outcomes.push(Effect.fail(insertFailure(error, append.parts[index] ?? append.parts.at(-1)!)))
      }
    }
    return { outcomes, heads, written, positions: { first, last } }
  }

  /** Runs one transaction over `batch`, then settles every append in it once the transaction is durable. */
  const commitBatch = (batch: ReadonlyArray<PendingAppend>): void => {
    const refusal = options.durability.refusal()
    if (refusal !== undefined) {
      for (const append of batch) append.settle(Effect.fail(refusal))
      return
    }
    let result: WrittenBatch
    try {
      statements.begin.run()
      streamVersions.beginTransaction()
      result = writeBatch(batch)
      statements.commit.run()
    } catch (error) {
      if (db.isOpen && db.isTransaction) statements.rollback.run()
      streamVersions.forget()
      const failure = Effect.fail(storeErrorFrom(error, `appending to ${options.path}`))
      for (const append of batch) append.settle(failure)
      return
    }
    streamVersions.committed(result.heads)
    transactions++
    appends += result.written
    largestBatchAppends = Math.max(largestBatchAppends, batch.length)
    options.durability.afterCommit(result.positions, (failure) => {
      const failed = failure === undefined ? undefined : Effect.fail(failure)
      for (const [i, append] of batch.entries()) append.settle(failed ?? result.outcomes[i]!)
      options.onAcknowledged()
      // Acknowledged later, from the sync's callback: the writers it woke may have queued their next appends
      // already, and committing them now saves waiting a turn of the event loop for the scheduled flush.
      if (!flushing && queue.length > 0) flush()
    })
  }

  /** Takes appends off the queue until the batch holds `appendBatchMaxEvents` events (and at least one append). */
  const takeBatch = (): Array<PendingAppend> => {
    let events = 0
    let count = 0
    while (count < queue.length && (count === 0 || events + eventsOf(queue[count]!) <= options.appendBatchMaxEvents)) {
      events += eventsOf(queue[count]!)
      count++
    }
    const batch = queue.slice(0, count)
    queue = queue.slice(count)
    return batch.filter((append) => !append.cancelled)
  }

  const flush = () => {
    flushScheduled = false
    flushing = true
    try {
      while (queue.length > 0) {
        const batch = takeBatch()
        if (batch.length > 0) commitBatch(batch)
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
    stats: () => ({ transactions, appends, largestBatchAppends }),
  }
}
