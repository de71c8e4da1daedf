/**
 * The PostgreSQL EventStore: for users who outgrow one machine. Several
 * processes may share one database; each stream's version row is the only
 * lock an append takes (docs/architecture.md#consistency), and the global order is
 * the one described in globalPosition.ts and README.md.
 */
import { randomUUID } from "node:crypto"
import {
  appendInTurn,
  canonicalJsonOrNothing,
  chainHashOfStored,
  checkAppendRequest,
  type EventMetadata,
  EventStore,
  type EventStoreShape,
  type ExpectedVersion,
  emptyStreamHead,
  followByReading,
  logStart,
  type NewEvent,
  type RecordedEvent,
  StoreError,
  type StreamHead,
  StreamHeadCache,
  SubjectKeys,
  type SubjectKeysShape,
  VersionConflict,
} from "@mizan/eventsourcing"
import { Clock, Context, Effect, Layer, type Scope, Stream } from "effect"
import pg from "pg"
import { columnTypes } from "./columnTypes.ts"
import { isStreamVersionTaken, storeErrorFrom } from "./errors.ts"
import { appendBatchEventsMax } from "./globalPosition.ts"
import { migrate, requireMigrated } from "./migrations.ts"
import { metadataOf, toRecordedEvent, toRecordOrPlace, toSignedHead } from "./records.ts"
import { type EventRow, type SignedHeadRow, type Statement, statementsFor } from "./statements.ts"
import { postgresSubjectKeys } from "./subjectKeys.ts"
import { defaultSchema, type Tables, tablesIn } from "./tables.ts"
import { Followers, NotificationChannel } from "./wakeups.ts"

export interface PostgresStoreOptions {
  /** The PostgreSQL schema that holds the store's tables; created on first open. Default "mizan". */
  readonly schema?: string
  /** Connections in this process's pool. Default 10. */
  readonly poolSizeConnections?: number
  /** How often an idle follower reads anyway, should a notification be lost. Default 1,000. */
  readonly pollIntervalMs?: number
  /** How long to wait before opening a dropped LISTEN connection again. Default 1,000. */
  readonly listenRetryDelayMs?: number
  /**
   * Open only a schema that already holds a Mizan store at this code's
   * version, creating and migrating nothing: for the tools that read what a
   * gateway wrote. Default false: the gateway creates and migrates.
   */
  readonly mustExist?: boolean
  /** How many streams' last version and chain hash this process remembers, to chain an append without a read. Default 10,000. */
  readonly streamHeadCacheMaxStreams?: number
}

export const postgresStoreDefaults = {
  schema: defaultSchema,
  poolSizeConnections: 10,
  streamHeadCacheMaxStreams: 10_000,
  pollIntervalMs: 1_000,
  listenRetryDelayMs: 1_000,
  mustExist: false,
} satisfies Required<PostgresStoreOptions>

/** The channel this store's appends are announced on (one per schema). */
export const appendChannel = (schema: string): string => `mizan_appended_${schema}`

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

type EncodedEvents = Effect.Success<ReturnType<typeof encodeEvents>>

/**
 * The append's events chained after `head` (chain.ts): their records but
 * for the global position, which the insert gives, and the statement's
 * parallel arrays. Each hash is over the canonical JSON the row stores.
 */
const chainBatch = (
  events: ReadonlyArray<NewEvent>,
  encoded: EncodedEvents,
  streamId: string,
  recordedAt: number,
  head: StreamHead,
) => {
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
export const anyAppendAttemptsMax = 100

/** What the append statement answers for each event it inserted. */
interface VersionRow {
  readonly global_position: string
  readonly stream_version: number
}

/**
 * The pool of `connectionString` and the store's tables in `settings.schema`,
 * brought up to date (or, with `mustExist`, found so); the pool ends with the
 * scope. What the store and its key table alone (keyTable.ts) both stand on.
 */
export const openTables = (
  connectionString: string,
  settings: Required<Pick<PostgresStoreOptions, "schema" | "poolSizeConnections" | "mustExist">>,
): Effect.Effect<{ readonly pool: pg.Pool; readonly tables: Tables }, StoreError, Scope.Scope> =>
  Effect.gen(function* () {
    const tables = yield* tablesIn(settings.schema)
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({
          connectionString,
          max: settings.poolSizeConnections,
          application_name: "mizan",
          types: columnTypes,
        })
        // An idle connection that dies is dropped by the pool; without a listener Node would crash the process.
        pool.on("error", () => undefined)
        return pool
      }),
      (pool) => Effect.promise(() => pool.end()),
    )
    yield* settings.mustExist ? requireMigrated(pool, tables) : migrate(pool, tables)
    return { pool, tables }
  })

/** The PostgreSQL store: the port, and the key table of sealed personal data in the same schema. */
export interface PostgresEventStore extends EventStoreShape {
  readonly subjectKeys: SubjectKeysShape
}

export const makePostgresEventStore = (
  connectionString: string,
  options: PostgresStoreOptions = {},
): Effect.Effect<PostgresEventStore, StoreError, Scope.Scope> =>
  Effect.gen(function* () {
    const settings = { ...postgresStoreDefaults, ...options }
    const { pool, tables } = yield* openTables(connectionString, settings)
    const statements = statementsFor(tables)

    const followers = new Followers()
    const notifications = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new NotificationChannel(
            connectionString,
            appendChannel(tables.schema),
            followers.wakeAll,
            settings.listenRetryDelayMs,
          ),
      ),
      (channel) => Effect.promise(channel.close),
    )
    // So that this process's first appends are announced too.
    yield* Effect.promise(() => notifications.ready)

    const query = <Row extends object>(action: string, statement: Statement, values: ReadonlyArray<unknown>) =>
      Effect.tryPromise({
        try: () => pool.query<Row>({ ...statement, values: [...values] }).then((result) => result.rows),
        catch: storeErrorFrom(action),
      })

    const streamVersion = (streamId: string) =>
      Effect.map(
        query<{ version: number }>(`reading the version of ${streamId}`, statements.streamVersion, [streamId]),
        (rows) => rows[0]?.version ?? 0,
      )

    /** Runs the append statement at `version`; "lost" when another writer holds the versions it claimed. */
    const claimAndInsert = (streamId: string, version: number, values: ReadonlyArray<unknown>) =>
      Effect.tryPromise({
        try: () =>
          pool
            .query<VersionRow>({
              ...statements.append(version),
              values: version > 0 ? [...values, version] : [...values],
            })
            .then(
              (result) => (result.rows.length === 0 ? ("lost" as const) : result.rows),
              (cause: unknown) => {
                // The second guard: the unique (stream_id, stream_version) constraint.
                if (isStreamVersionTaken(cause)) return "lost" as const
                throw cause
              },
            ),
        catch: storeErrorFrom(`appending to ${streamId}`),
      })

    const heads = new StreamHeadCache(settings.streamHeadCacheMaxStreams)

    /**
     * Where the append builds on: the stream's head at the expected version,
     * remembered or read (one indexed row). "missing" when the stream has no
     * event at that version, which is a lost race by the time it is answered.
     */
    const headFor = (streamId: string, expected: ExpectedVersion) => {
      if (expected === "no_stream" || expected === 0) return Effect.succeed(emptyStreamHead)
      const known = heads.get(streamId)
      if (expected === "any")
        return known !== undefined
          ? Effect.succeed(known)
          : Effect.map(
              query<{ stream_version: number; chain_hash: string }>(
                `reading the head of ${streamId}`,
                statements.streamHead,
                [streamId],
              ),
              ([row]): StreamHead =>
                row === undefined ? emptyStreamHead : { version: row.stream_version, chainHash: row.chain_hash },
            )
      if (known?.version === expected) return Effect.succeed(known)
      return Effect.map(
        query<{ chain_hash: string }>(`reading ${streamId} v${expected}`, statements.chainHashAt, [streamId, expected]),
        ([row]): StreamHead | "missing" =>
          row === undefined ? "missing" : { version: expected, chainHash: row.chain_hash },
      )
    }

    const append: EventStoreShape["append"] = (streamId, events, expected) =>
      Effect.gen(function* () {
        yield* checkAppendRequest(streamId, events.length, expected)
        if (events.length > appendBatchEventsMax)
          return yield* new StoreError({
            reason: "InvalidRequest",
            detail: `an append carries at most ${appendBatchEventsMax} events, not ${events.length}`,
          })
        const recordedAt = yield* Clock.currentTimeMillis
        const encoded = yield* encodeEvents(events)
        for (let attempt = 1; ; attempt++) {
          const head = yield* headFor(streamId, expected)
          if (head === "missing")
            return yield* new VersionConflict({ streamId, expected, actual: yield* streamVersion(streamId) })
          const batch = chainBatch(events, encoded, streamId, recordedAt, head)
          const inserted = yield* claimAndInsert(streamId, head.version, [
            streamId,
            events.length,
            recordedAt,
            ...batch.columns,
          ])
          if (inserted === "lost") {
            heads.forget(streamId)
            // "any" appends wherever the stream stands: build on its new head.
            if (expected === "any" && attempt < anyAppendAttemptsMax) continue
            return yield* new VersionConflict({ streamId, expected, actual: yield* streamVersion(streamId) })
          }
          heads.remember(streamId, batch.last)
          followers.wakeAll()
          notifications.announce()
          const positions = new Map(inserted.map((row) => [row.stream_version, BigInt(row.global_position)]))
          const records = batch.chained.map(
            (event): RecordedEvent => ({ ...event, globalPosition: positions.get(event.streamVersion)! }),
          )
          return { streamVersion: batch.last.version, records }
        }
      })

    const readAll: EventStoreShape["readAll"] = ({ after, maxCount, wholeEventsOf }) =>
      wholeEventsOf === undefined
        ? Effect.map(
            query<EventRow>(`reading the log after ${after}`, statements.readAll, [after.toString(), maxCount]),
            (rows) => rows.map(toRecordedEvent),
          )
        : Effect.map(
            query<EventRow>(`reading the log after ${after}`, statements.readAllDataText, [after.toString(), maxCount]),
            (rows) => rows.map((row) => toRecordOrPlace(row, wholeEventsOf)),
          )

    const store: PostgresEventStore = {
      subjectKeys: postgresSubjectKeys(pool, tables),
      append,
      // Each append is one statement in a transaction of its own, its positions numbered by that transaction
      // (globalPosition.ts): parts of one transaction would need those numbers offset. In turn until then.
      appendMany: appendInTurn(append),
      readStream: (streamId, options) =>
        Effect.map(
          query<EventRow>(`reading ${streamId}`, statements.readStream, [
            streamId,
            Math.max(options?.fromVersion ?? 1, 1),
            options?.maxCount ?? null,
          ]),
          (rows) => {
            const records = rows.map(toRecordedEvent)
            const last = records.at(-1)
            // The handler reads a stream and then appends after its last event: remember where that is.
            if (last?.chainHash !== undefined)
              heads.remember(streamId, { version: last.streamVersion, chainHash: last.chainHash })
            return records
          },
        ),
      readAll,
      follow: (after, options) =>
        Stream.unwrap(
          Effect.map(
            Effect.acquireRelease(Effect.sync(followers.join), (signal) => Effect.sync(() => followers.leave(signal))),
            (signal) => followByReading(readAll, signal, settings.pollIntervalMs)(after, options),
          ),
        ),
      readCheckpoint: (name) =>
        Effect.map(
          query<{ global_position: string }>(`reading checkpoint ${name}`, statements.readCheckpoint, [name]),
          (rows) => (rows[0] === undefined ? logStart : BigInt(rows[0].global_position)),
        ),
      storeCheckpoint: (name, position) =>
        Effect.asVoid(query(`storing checkpoint ${name}`, statements.storeCheckpoint, [name, position.toString()])),
      storeSignedHead: (head) =>
        Effect.asVoid(
          query(`storing the signed head at ${head.count} events`, statements.storeSignedHead, [
            head.count,
            head.lastEventId,
            head.digest,
            head.signedAt,
            head.signature,
            head.position.toString(),
          ]),
        ),
      readSignedHeads: ({ afterCount, maxCount }) =>
        Effect.map(
          query<SignedHeadRow>("reading the signed heads", statements.readSignedHeads, [afterCount, maxCount]),
          (rows) => rows.map(toSignedHead),
        ),
      readLastSignedHead: Effect.map(
        query<SignedHeadRow>("reading the last signed head", statements.readLastSignedHead, []),
        ([row]) => (row === undefined ? undefined : toSignedHead(row)),
      ),
    }
    return store
  })

/** The EventStore service on PostgreSQL, with the key table of the same schema as SubjectKeys. */
export const layerPostgres = (
  connectionString: string,
  options?: PostgresStoreOptions,
): Layer.Layer<EventStore | SubjectKeys, StoreError> =>
  Layer.effectContext(
    Effect.map(makePostgresEventStore(connectionString, options), (store) =>
      Context.make(EventStore, store).pipe(Context.add(SubjectKeys, store.subjectKeys)),
    ),
  )
