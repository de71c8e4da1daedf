/**
 * The store's writes: `append`, one statement and so one implicit
 * transaction, and `appendMany`, the same statement once per part inside one
 * explicit transaction, all or none (README.md, "Concurrency per stream").
 */
import { randomUUID } from "node:crypto"
import {
  type AppendResult,
  appendManyRequestProblem,
  canonicalJsonOrNothing,
  chainHashOfStored,
  checkAppendRequest,
  type EventMetadata,
  type EventStoreShape,
  type ExpectedVersion,
  emptyStreamHead,
  type NewEvent,
  type RecordedEvent,
  StoreError,
  type StreamAppend,
  type StreamHead,
  type StreamHeadCache,
  VersionConflict,
} from "@mizan/eventsourcing"
import { Clock, Data, Effect } from "effect"
import type pg from "pg"
import { isStreamVersionTaken, storeErrorFrom } from "./errors.ts"
import { appendBatchMaxEvents } from "./globalPosition.ts"
import { type Queryable, queryRows } from "./queries.ts"
import { metadataOf } from "./records.ts"
import type { Statement, Statements } from "./statements.ts"
import { inTransaction } from "./transaction.ts"

const idOf = (metadata: EventMetadata | undefined, key: keyof EventMetadata): string | null => metadata?.[key] ?? null

/**
 * Settles ids and turns an append's events into the columns that do not
 * depend on where the stream stands. Data is stored as its canonical JSON
 * (keys sorted), which the json column keeps exactly as written (jsonb
 * would not), so that the chain hash covers that very text; and it is
 * parsed back, so that what the append answers is exactly what a later
 * read returns.
 */
const encodeEvents = (events: ReadonlyArray<NewEvent>) =>
  Effect.try({
    try: () => {
      const dataJson = events.map((event) => canonicalJsonOrNothing(event.data) ?? "null")
      return {
        ids: events.map((event) => event.id ?? randomUUID()),
        dataJson,
        data: dataJson.map((json) => JSON.parse(json) as unknown),
        correlationIds: events.map((event) => idOf(event.metadata, "correlationId")),
        causationIds: events.map((event) => idOf(event.metadata, "causationId")),
      }
    },
    catch: (cause) =>
      new StoreError({ reason: "InvalidRequest", detail: `event data must be JSON: ${String(cause)}`, cause }),
  })

/** One stream's append with its events encoded: what is written, whatever the stream's head turns out to be. */
interface EncodedPart extends StreamAppend {
  readonly encoded: Effect.Success<ReturnType<typeof encodeEvents>>
}

const encodePart = (part: StreamAppend) =>
  Effect.map(encodeEvents(part.events), (encoded): EncodedPart => ({ ...part, encoded }))

/**
 * The append's events chained after `head` (chain.ts): their records but
 * for the global position, which the insert gives, and the statement's
 * parallel arrays. Each hash is over the canonical JSON the row stores.
 */
const chainBatch = ({ streamId, events, encoded }: EncodedPart, recordedAt: number, head: StreamHead) => {
  let previous = head.chainHash
  const chained = events.map((event, i) => {
    const fields = {
      id: encoded.ids[i]!,
      streamId,
      type: event.type,
      schemaVersion: event.schemaVersion,
      data: encoded.data[i],
      metadata: metadataOf(encoded.correlationIds[i]!, encoded.causationIds[i]!, recordedAt),
      streamVersion: head.version + i + 1,
    }
    previous = chainHashOfStored(previous, fields, encoded.dataJson[i])
    return { ...fields, chainHash: previous }
  })
  const columns = [
    encoded.ids,
    events.map((event) => event.type),
    events.map((event) => event.schemaVersion),
    encoded.dataJson,
    encoded.correlationIds,
    encoded.causationIds,
    chained.map((event) => event.chainHash),
  ]
  return { chained, columns, last: { version: head.version + events.length, chainHash: previous } }
}

/**
 * How often an append expecting "any" builds on the stream's head again
 * after another writer moved it first. Each retry re-reads the head, so
 * only a stream appended to without pause by others exhausts it.
 */
export const anyAppendMaxAttempts = 100

/** What the append statement answers for each event it inserted. */
interface VersionRow {
  readonly global_position: string
  readonly stream_version: number
}

/** A part written, not yet committed: its result, and the head its stream will have once it is. */
interface WrittenPart {
  readonly result: AppendResult
  readonly head: StreamHead
}

/** The part of an appendMany that lost its stream to another writer: the transaction is rolled back. */
class LostPart extends Data.TaggedError("LostPart")<{ readonly index: number }> {}

const tooMany = (what: string, events: number) =>
  new StoreError({
    reason: "InvalidRequest",
    detail: `${what} carries at most ${appendBatchMaxEvents} events, not ${events}`,
  })

export interface AppendsOn {
  readonly pool: pg.Pool
  readonly statements: Statements
  readonly heads: StreamHeadCache
  /** Tells followers, here and in other processes, that appends committed. */
  readonly announce: () => void
}

export const makeAppends = ({ pool, statements, heads, announce }: AppendsOn) => {
  /** The VersionConflict of a part that lost, with its stream's version now. */
  const conflict = ({ streamId, expected }: StreamAppend) =>
    Effect.flatMap(
      queryRows<{ version: number }>(pool, `reading the version of ${streamId}`, statements.streamVersion, [streamId]),
      (rows) => Effect.fail(new VersionConflict({ streamId, expected, actual: rows[0]?.version ?? 0 })),
    )

  /** Runs an append statement; "lost" when another writer holds the versions it claimed. */
  const claimAndInsert = (on: Queryable, streamId: string, statement: Statement, values: ReadonlyArray<unknown>) =>
    Effect.tryPromise({
      try: () =>
        on.query<VersionRow>({ ...statement, values: [...values] }).then(
          (result) => (result.rows.length === 0 ? ("lost" as const) : result.rows),
          (cause: unknown) => {
            // The second guard: the unique (stream_id, stream_version) constraint.
            if (isStreamVersionTaken(cause)) return "lost" as const
            throw cause
          },
        ),
      catch: storeErrorFrom(`appending to ${streamId}`),
    })

  /**
   * Where the append builds on: the stream's head at the expected version,
   * remembered or read (one indexed row). "missing" when the stream has no
   * event at that version, which is a lost race by the time it is answered.
   */
  const headFor = (on: Queryable, streamId: string, expected: ExpectedVersion) => {
    if (expected === "no_stream" || expected === 0) return Effect.succeed(emptyStreamHead)
    const known = heads.get(streamId)
    if (expected === "any")
      return known !== undefined
        ? Effect.succeed(known)
        : Effect.map(
            queryRows<{ stream_version: number; chain_hash: string }>(
              on,
              `reading the head of ${streamId}`,
              statements.streamHead,
              [streamId],
            ),
            ([row]): StreamHead =>
              row === undefined ? emptyStreamHead : { version: row.stream_version, chainHash: row.chain_hash },
          )
    if (known?.version === expected) return Effect.succeed(known)
    return Effect.map(
      queryRows<{ chain_hash: string }>(on, `reading ${streamId} v${expected}`, statements.chainHashAt, [
        streamId,
        expected,
      ]),
      ([row]): StreamHead | "missing" =>
        row === undefined ? "missing" : { version: expected, chainHash: row.chain_hash },
    )
  }

  /**
   * Chains a part on its stream's head and writes it on `on`: alone, or,
   * given `placedAfter` (how many events the parts before it carry), as a
   * part of an appendMany's transaction. "lost" when the stream is not at
   * the head it built on.
   */
  const writePart = Effect.fnUntraced(function* (
    on: Queryable,
    part: EncodedPart,
    recordedAt: number,
    placedAfter?: number,
  ) {
    const { streamId, events } = part
    const head = yield* headFor(on, streamId, part.expected)
    if (head === "missing") return "lost" as const
    const batch = chainBatch(part, recordedAt, head)
    const values = [streamId, events.length, recordedAt, ...batch.columns]
    const version = head.version > 0 ? [head.version] : []
    const inserted = yield* placedAfter === undefined
      ? claimAndInsert(on, streamId, statements.append(head.version), [...values, ...version])
      : claimAndInsert(on, streamId, statements.appendPart(head.version), [...values, placedAfter, ...version])
    if (inserted === "lost") {
      heads.forget(streamId)
      return "lost" as const
    }
    const positions = new Map(inserted.map((row) => [row.stream_version, BigInt(row.global_position)]))
    const records = batch.chained.map(
      (event): RecordedEvent => ({ ...event, globalPosition: positions.get(event.streamVersion)! }),
    )
    return { result: { streamVersion: batch.last.version, records }, head: batch.last } satisfies WrittenPart
  })

  const append: EventStoreShape["append"] = Effect.fnUntraced(function* (streamId, events, expected) {
    yield* checkAppendRequest(streamId, events.length, expected)
    if (events.length > appendBatchMaxEvents) return yield* tooMany("an append", events.length)
    const recordedAt = yield* Clock.currentTimeMillis
    const part = yield* encodePart({ streamId, events, expected })
    for (let attempt = 1; ; attempt++) {
      const written = yield* writePart(pool, part, recordedAt)
      if (written === "lost") {
        // "any" appends wherever the stream stands: build on its new head.
        if (expected === "any" && attempt < anyAppendMaxAttempts) continue
        return yield* conflict(part)
      }
      heads.remember(streamId, written.head)
      announce()
      return written.result
    }
  })

  /**
   * Every part in one transaction. Parts claim their streams' rows in stream
   * id order, whatever their order in the request, so that two appendManys
   * sharing streams queue for them instead of deadlocking; their events take
   * their places in the log in the request's order all the same
   * (`placedAfter`). A lost part rolls everything back; if it expected "any",
   * the whole transaction is tried again on fresh heads, as a single append
   * is. Heads are remembered only once committed.
   */
  const appendMany: EventStoreShape["appendMany"] = Effect.fnUntraced(function* (parts) {
    const problem = appendManyRequestProblem(parts)
    if (problem !== undefined) return yield* problem
    const total = parts.reduce((sum, part) => sum + part.events.length, 0)
    if (total > appendBatchMaxEvents) return yield* tooMany("an appendMany", total)
    const recordedAt = yield* Clock.currentTimeMillis
    const encoded = yield* Effect.forEach(parts, encodePart)
    // Where each part's events start in the log, after the parts before it in the request.
    const placedAfter: Array<number> = []
    let eventsBefore = 0
    for (const part of parts) {
      placedAfter.push(eventsBefore)
      eventsBefore += part.events.length
    }
    const claimOrder = parts.map((_, i) => i).sort((a, b) => (parts[a]!.streamId < parts[b]!.streamId ? -1 : 1))
    for (let attempt = 1; ; attempt++) {
      const written = yield* inTransaction(pool, "appending many", (client) =>
        Effect.gen(function* () {
          const inRequestOrder: Array<WrittenPart> = []
          for (const i of claimOrder) {
            const part = yield* writePart(client, encoded[i]!, recordedAt, placedAfter[i]!)
            if (part === "lost") return yield* new LostPart({ index: i })
            inRequestOrder[i] = part
          }
          return inRequestOrder
        }),
      ).pipe(Effect.catchTag("LostPart", ({ index }) => Effect.succeed(index)))
      if (typeof written === "number") {
        const lost = parts[written]!
        if (lost.expected === "any" && attempt < anyAppendMaxAttempts) continue
        return yield* conflict(lost)
      }
      for (const [i, { head }] of written.entries()) heads.remember(parts[i]!.streamId, head)
      announce()
      return written.map(({ result }) => result)
    }
  })

  return { append, appendMany }
}
