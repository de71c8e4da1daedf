/**
 * One write transaction of the group-commit writer (groupCommit.ts): each
 * append of a batch checked against its expected versions and inserted, all
 * or none under its own savepoint, then the batch committed and settled once
 * durable. Synchronous from BEGIN to COMMIT, as node:sqlite is.
 */
import type { DatabaseSync, StatementSync } from "node:sqlite"
import {
  type AppendResult,
  type RecordedEvent,
  StoreError,
  VersionConflict,
  versionMatches,
} from "@mizan/eventsourcing"
import { Effect } from "effect"
import type { Durability, WrittenPositions } from "./durability.ts"
import { type AppendOutcome, type EncodedPart, eventsOf, type PendingAppend } from "./pendingAppend.ts"
import { type Chaining, chainedOfEncoded } from "./rows.ts"
import { breaksUniqueConstraint, storeErrorFrom } from "./sqliteErrors.ts"
import type { StreamHead, StreamVersions } from "./streamVersions.ts"

export interface WriterStatements {
  readonly begin: StatementSync
  readonly commit: StatementSync
  readonly rollback: StatementSync
  readonly savepoint: StatementSync
  readonly release: StatementSync
  readonly rollbackToSavepoint: StatementSync
  readonly insert: StatementSync
}

export const prepareWriterStatements = (db: DatabaseSync): WriterStatements => ({
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

/** What a batch is written with: the connection, its statements and stream versions, and the writer's settings. */
export interface BatchWriter {
  readonly db: DatabaseSync
  readonly statements: WriterStatements
  readonly streamVersions: StreamVersions
  /** For error messages: which file this writer writes. */
  readonly path: string
  readonly durability: Durability
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

/** Inserts one part's events after its stream's head, chaining each to the one before; throws what SQLite threw. */
const insertPart = (
  writer: BatchWriter,
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
      writer.chaining.hash,
    )
    const { lastInsertRowid } = writer.statements.insert.run(
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
const insertFailure = (writer: BatchWriter, error: unknown, part: EncodedPart): VersionConflict | StoreError => {
  if (breaksUniqueConstraint(error, "events.stream_id, events.stream_version")) {
    // The second guard held where the version check should have: trust no remembered version any more.
    writer.streamVersions.forget()
    return new VersionConflict({
      streamId: part.streamId,
      expected: part.expected,
      actual: writer.streamVersions.committedHead(part.streamId).version,
    })
  }
  if (breaksUniqueConstraint(error, "events.event_id"))
    return new StoreError({
      reason: "InvalidRequest",
      detail: `an event id of this append to ${part.streamId} is already recorded; event ids are unique`,
    })
  return storeErrorFrom(error, `appending to ${part.streamId} in ${writer.path}`)
}

/** Each part's stream head, if every part's stream is at the version it expects; else the first conflict. */
const headsOf = (
  writer: BatchWriter,
  append: PendingAppend,
  heads: ReadonlyMap<string, StreamHead>,
): ReadonlyArray<StreamHead> | VersionConflict => {
  const partHeads: Array<StreamHead> = []
  for (const { streamId, expected } of append.parts) {
    const head = heads.get(streamId) ?? writer.streamVersions.committedHead(streamId)
    if (!versionMatches(expected, head.version))
      return new VersionConflict({ streamId, expected, actual: head.version })
    partHeads.push(head)
  }
  return partHeads
}

/** What one append written adds to its batch: its outcome, and the last global position when it was written. */
interface AppendWritten {
  readonly outcome: AppendOutcome
  readonly lastPosition: number | undefined
}

/**
 * Checks and inserts one append in the open transaction, all or none, the
 * heads it leaves set in `heads`. Throws only when the transaction itself is lost.
 */
const writeAppend = (writer: BatchWriter, append: PendingAppend, heads: Map<string, StreamHead>): AppendWritten => {
  const partHeads = headsOf(writer, append, heads)
  if (partHeads instanceof VersionConflict) return { outcome: Effect.fail(partHeads), lastPosition: undefined }
  const { statements } = writer
  // One INSERT is atomic on its own (a failed statement is undone alone), so only a longer append needs a savepoint.
  const savepoint = append.parts.length > 1 || append.parts[0]!.events.length > 1
  if (savepoint) statements.savepoint.run()
  const results: Array<AppendResult> = []
  const newHeads: Array<StreamHead> = []
  let lastPosition = 0
  let index = 0
  try {
    for (; index < append.parts.length; index++) {
      const inserted = insertPart(writer, append.parts[index]!, partHeads[index]!, append.recordedAt)
      const { chainHash, lastPosition: partLastPosition, ...result } = inserted
      results.push(result)
      newHeads.push({ version: result.streamVersion, chainHash })
      lastPosition = partLastPosition
    }
    if (savepoint) statements.release.run()
    for (const [i, head] of newHeads.entries()) heads.set(append.parts[i]!.streamId, head)
    return { outcome: Effect.succeed(results), lastPosition }
  } catch (error) {
    // A full disk or an I/O error can end the whole transaction; then nothing of the batch stands.
    if (!writer.db.isTransaction) throw error
    if (savepoint) {
      statements.rollbackToSavepoint.run()
      statements.release.run()
    }
    // The part whose insert failed (the last one when the savepoint's release did).
    const failed = append.parts[index] ?? append.parts.at(-1)!
    return { outcome: Effect.fail(insertFailure(writer, error, failed)), lastPosition: undefined }
  }
}

/**
 * Checks and inserts each append of `batch` in the open transaction, each
 * all or none. Throws only when the transaction itself is lost.
 */
const writeBatch = (writer: BatchWriter, batch: ReadonlyArray<PendingAppend>): WrittenBatch => {
  const outcomes: Array<AppendOutcome> = []
  // Heads as this transaction leaves them, so that appends to one stream in one batch see (and chain to) each other.
  const heads = new Map<string, StreamHead>()
  let written = 0
  let first = 0
  let last = 0
  for (const append of batch) {
    const { outcome, lastPosition } = writeAppend(writer, append, heads)
    outcomes.push(outcome)
    if (lastPosition === undefined) continue
    written++
    // The rowids of one append are consecutive: this connection holds the write lock.
    if (first === 0) first = lastPosition - eventsOf(append) + 1
    last = lastPosition
  }
  return { outcomes, heads, written, positions: { first, last } }
}

/** What the writer hears of a batch: committed (with how many appends it wrote), then acknowledged once durable. */
export interface BatchListener {
  readonly committed: (batch: ReadonlyArray<PendingAppend>, written: number) => void
  readonly acknowledged: () => void
}

/** Runs one transaction over `batch`, then settles every append in it once the transaction is durable. */
export const commitBatch = (
  writer: BatchWriter,
  batch: ReadonlyArray<PendingAppend>,
  listener: BatchListener,
): void => {
  const refusal = writer.durability.refusal()
  if (refusal !== undefined) {
    for (const append of batch) append.settle(Effect.fail(refusal))
    return
  }
  let result: WrittenBatch
  try {
    writer.statements.begin.run()
    writer.streamVersions.beginTransaction()
    result = writeBatch(writer, batch)
    writer.statements.commit.run()
  } catch (error) {
    if (writer.db.isOpen && writer.db.isTransaction) writer.statements.rollback.run()
    writer.streamVersions.forget()
    const failure = Effect.fail(storeErrorFrom(error, `appending to ${writer.path}`))
    for (const append of batch) append.settle(failure)
    return
  }
  writer.streamVersions.committed(result.heads)
  listener.committed(batch, result.written)
  writer.durability.afterCommit(result.positions, (failure) => {
    const failed = failure === undefined ? undefined : Effect.fail(failure)
    for (const [i, append] of batch.entries()) append.settle(failed ?? result.outcomes[i]!)
    listener.acknowledged()
  })
}
