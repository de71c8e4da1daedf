/**
 * The PostgreSQL EventStore: for users who outgrow one machine. Several
 * processes may share one database; each stream's version row is the only
 * lock an append takes (docs/architecture.md#consistency), and the global order is
 * the one described in globalPosition.ts and README.md.
 */
import {
  EventStore,
  type EventStoreShape,
  followByReading,
  logStart,
  type StoreError,
  StreamHeadCache,
  SubjectKeys,
  type SubjectKeysShape,
} from "@mizan/eventsourcing"
import { Context, Effect, Layer, Stream } from "effect"
import pg from "pg"
import { makeAppends } from "./appends.ts"
import { columnTypes } from "./columnTypes.ts"
import { migrate, requireMigrated } from "./migrations.ts"
import { queryRows } from "./queries.ts"
import { toRecordedEvent, toRecordOrPlace, toSignedHead } from "./records.ts"
import { type EventRow, type SignedHeadRow, type Statement, statementsFor } from "./statements.ts"
import { postgresSubjectKeys } from "./subjectKeys.ts"
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

/**
 * The pool of `connectionString` and the store's tables in `settings.schema`,
 * brought up to date (or, with `mustExist`, found so); the pool ends with the
 * scope. What the store and its key table alone (keyTable.ts) both stand on.
 */
export const openTables = Effect.fnUntraced(function* (
  connectionString: string,
  settings: Required<Pick<PostgresStoreOptions, "schema" | "poolSizeConnections" | "mustExist">>,
) {
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

export const makePostgresEventStore = Effect.fnUntraced(function* (
  connectionString: string,
  options: PostgresStoreOptions = {},
) {
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

  const heads = new StreamHeadCache(settings.streamHeadCacheMaxStreams)
  const query = <Row extends object>(action: string, statement: Statement, values: ReadonlyArray<unknown>) =>
    queryRows<Row>(pool, action, statement, values)

  const { append, appendMany } = makeAppends({
    pool,
    statements,
    heads,
    announce: () => {
      followers.wakeAll()
      notifications.announce()
    },
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
    appendMany,
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
