/**
 * The PostgreSQL EventStore: for users who outgrow one machine. Several
 * processes may share one database; each stream's version row is the only
 * lock an append takes (docs/architecture.md#consistency), and the global order is
 * the one described in globalPosition.ts and README.md.
 */
import { randomUUID } from "node:crypto"
import {
  checkAppendRequest,
  type EventMetadata,
  EventStore,
  type EventStoreShape,
  type ExpectedVersion,
  followByReading,
  logStart,
  type NewEvent,
  type RecordedEvent,
  StoreError,
  VersionConflict,
} from "@mizan/eventsourcing"
import { Clock, Effect, Layer, type Scope, Stream } from "effect"
import pg from "pg"
import { columnTypes } from "./columnTypes.ts"
import { isStreamVersionTaken, storeErrorFrom } from "./errors.ts"
import { appendBatchEventsMax } from "./globalPosition.ts"
import { migrate, requireMigrated } from "./migrations.ts"
import { type EventRow, type Statement, statementsFor } from "./statements.ts"
import { defaultSchema, tablesIn } from "./tables.ts"
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
}

const defaults = {
  schema: defaultSchema,
  poolSizeConnections: 10,
  pollIntervalMs: 1_000,
  listenRetryDelayMs: 1_000,
  mustExist: false,
} satisfies Required<PostgresStoreOptions>

/** The channel this store's appends are announced on (one per schema). */
export const appendChannel = (schema: string): string => `mizan_appended_${schema}`

/** Metadata as the port returns it: only the ids that were given, and when the store recorded the event. */
const metadataOf = (correlationId: string | null, causationId: string | null, recordedAt: number) => ({
  ...(correlationId === null ? {} : { correlationId }),
  ...(causationId === null ? {} : { causationId }),
  recordedAt,
})

const toRecordedEvent = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  streamId: row.stream_id,
  type: row.event_type,
  schemaVersion: row.schema_version,
  data: row.data,
  metadata: metadataOf(row.correlation_id, row.causation_id, Number(row.recorded_at_ms)),
  streamVersion: row.stream_version,
  globalPosition: BigInt(row.global_position),
})

const idOf = (metadata: EventMetadata | undefined, key: keyof EventMetadata): string | null => metadata?.[key] ?? null

/**
 * Settles ids and turns the batch into the append statement's parallel
 * arrays. Data is round-tripped through JSON so that what the append
 * answers is exactly what a later read returns.
 */
const encodeBatch = (events: ReadonlyArray<NewEvent>) =>
  Effect.try({
    try: () => {
      const ids = events.map((event) => event.id ?? randomUUID())
      const dataJson = events.map((event) => JSON.stringify(event.data) ?? "null")
      const correlationIds = events.map((event) => idOf(event.metadata, "correlationId"))
      const causationIds = events.map((event) => idOf(event.metadata, "causationId"))
      const records = (streamId: string, recordedAt: number, versions: ReadonlyArray<VersionRow>) =>
        events.map(
          (event, i): RecordedEvent => ({
            id: ids[i]!,
            streamId,
            type: event.type,
            schemaVersion: event.schemaVersion,
            data: JSON.parse(dataJson[i]!),
            metadata: metadataOf(correlationIds[i]!, causationIds[i]!, recordedAt),
            streamVersion: versions[i]!.stream_version,
            globalPosition: BigInt(versions[i]!.global_position),
          }),
        )
      const columns = [
        ids,
        events.map((event) => event.type),
        events.map((event) => event.schemaVersion),
        dataJson,
        correlationIds,
        causationIds,
      ]
      return { columns, records }
    },
    catch: (cause) =>
      new StoreError({ reason: "InvalidRequest", detail: `event data must be JSON: ${String(cause)}`, cause }),
  })

/** What the append statement answers for each event it inserted. */
interface VersionRow {
  readonly global_position: string
  readonly stream_version: number
}

export const makePostgresEventStore = (
  connectionString: string,
  options: PostgresStoreOptions = {},
): Effect.Effect<EventStoreShape, StoreError, Scope.Scope> =>
  Effect.gen(function* () {
    const settings = { ...defaults, ...options }
    const tables = yield* tablesIn(settings.schema)
    const statements = statementsFor(tables)

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

    /** Runs the append statement; "lost" when another writer holds the versions it claimed. */
    const claimAndInsert = (streamId: string, expected: ExpectedVersion, values: ReadonlyArray<unknown>) =>
      Effect.tryPromise({
        try: () =>
          pool
            .query<VersionRow>({
              ...statements.append(expected),
              values: typeof expected === "number" && expected > 0 ? [...values, expected] : [...values],
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

    const append: EventStoreShape["append"] = (streamId, events, expected) =>
      Effect.gen(function* () {
        yield* checkAppendRequest(streamId, events.length, expected)
        if (events.length > appendBatchEventsMax)
          return yield* new StoreError({
            reason: "InvalidRequest",
            detail: `an append carries at most ${appendBatchEventsMax} events, not ${events.length}`,
          })
        const recordedAt = yield* Clock.currentTimeMillis
        const batch = yield* encodeBatch(events)
        const inserted = yield* claimAndInsert(streamId, expected, [
          streamId,
          events.length,
          recordedAt,
          ...batch.columns,
        ])
        if (inserted === "lost")
          return yield* new VersionConflict({ streamId, expected, actual: yield* streamVersion(streamId) })
        followers.wakeAll()
        notifications.announce()
        const records = batch.records(
          streamId,
          recordedAt,
          [...inserted].sort((a, b) => a.stream_version - b.stream_version),
        )
        return { streamVersion: records.at(-1)!.streamVersion, records }
      })

    const readAll: EventStoreShape["readAll"] = ({ after, maxCount }) =>
      Effect.map(
        query<EventRow>(`reading the log after ${after}`, statements.readAll, [after.toString(), maxCount]),
        (rows) => rows.map(toRecordedEvent),
      )

    const store: EventStoreShape = {
      append,
      readStream: (streamId, options) =>
        Effect.map(
          query<EventRow>(`reading ${streamId}`, statements.readStream, [
            streamId,
            Math.max(options?.fromVersion ?? 1, 1),
            options?.maxCount ?? null,
          ]),
          (rows) => rows.map(toRecordedEvent),
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
    }
    return store
  })

export const layerPostgres = (
  connectionString: string,
  options?: PostgresStoreOptions,
): Layer.Layer<EventStore, StoreError> => Layer.effect(EventStore, makePostgresEventStore(connectionString, options))
