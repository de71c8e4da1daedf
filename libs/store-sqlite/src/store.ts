/**
 * The embedded event store: one SQLite file through Node's built-in
 * node:sqlite, no server and no native addon (docs/architecture.md#layers-and-what-may-import-what).
 */
import type { DatabaseSync } from "node:sqlite"
import {
  type AppendResult,
  AppendSignal,
  appendManyRequestProblem,
  EventStore,
  type EventStoreShape,
  followByReading,
  logStart,
  type SignedHead,
  StoreError,
  SubjectKeys,
  type SubjectKeysShape,
  type VersionConflict,
} from "@mizan/eventsourcing"
import { Context, Effect, Layer, type Scope } from "effect"
import { type OnFile, openFileNow, type Synchronous } from "./connection.ts"
import { makeDurability } from "./durability.ts"
import { type EncodedPart, type GroupCommitStats, makeGroupCommitWriter, type PendingAppend } from "./groupCommit.ts"
import { type LogSync, threadPoolLogSync } from "./logSync.ts"
import { makeReopening, type Reopening } from "./reopening.ts"
import {
  type Chaining,
  chained,
  DamagedEventJson,
  type EventRow,
  encodeEvents,
  eventColumns,
  recordsOfRows,
} from "./rows.ts"
import { storeErrorFrom } from "./sqliteErrors.ts"
import { sqliteSubjectKeys } from "./subjectKeys.ts"

export interface SqliteStoreOptions {
  /**
   * What an acknowledged append survives: under "full-offloaded" (the default) and "full" a power loss too,
   * the first syncing the log in the thread pool; under "normal" only a process kill. At every level reads
   * hand out another process's commits only once on disk (README.md, Durability).
   */
  readonly synchronous?: Synchronous
  /** How long a write waits for another process's write lock before failing with Locked. The wait blocks the event loop. */
  readonly busyTimeoutMs?: number
  /** How often a follower looks for events appended by another process (this process's appends wake it at once). */
  readonly followPollIntervalMs?: number
  /** The most events one group-commit transaction holds. */
  readonly appendBatchMaxEvents?: number
  /** How many streams' versions the writer remembers between transactions (src/streamVersions.ts). */
  readonly streamVersionCacheMaxStreams?: number
}

export const sqliteStoreDefaults = {
  synchronous: "full-offloaded",
  busyTimeoutMs: 2_000,
  followPollIntervalMs: 500,
  appendBatchMaxEvents: 4_096,
  streamVersionCacheMaxStreams: 10_000,
} as const satisfies Required<SqliteStoreOptions>

/** One page of `readAll` holds at most this many events, whatever the caller asks: a page is built in memory. */
export const readPageMaxEvents = 10_000

/** The SQLite store: the port, plus counters that show group commit at work. */
export interface SqliteEventStore extends EventStoreShape {
  readonly stats: () => GroupCommitStats
  /** The key table of sealed personal data, in the same file (subjectKeys.ts). */
  readonly subjectKeys: SubjectKeysShape
}

/** The statements of everything but appends (those are the writer's). */
interface Queries {
  readonly readAll: (after: bigint, maxCount: number) => ReadonlyArray<EventRow>
  readonly readStream: (streamId: string, fromVersion: number, maxCount: number) => ReadonlyArray<EventRow>
  readonly readCheckpoint: (name: string) => bigint | undefined
  readonly storeCheckpoint: (name: string, position: bigint) => void
  readonly storeSignedHead: (head: SignedHead) => void
  readonly readSignedHeads: (afterCount: number, maxCount: number) => ReadonlyArray<SignedHead>
  readonly readLastSignedHead: () => SignedHead | undefined
  /** The position of the last event in the file (0 when it holds none). */
  readonly lastPosition: () => number
}

const signedHeadColumns = "count, last_event_id, digest, signed_at, signature, position"

type SignedHeadRow = readonly [
  count: number,
  lastEventId: string,
  digest: string,
  signedAt: number,
  signature: string,
  position: number,
]

const signedHeadOfRow = (row: SignedHeadRow): SignedHead => ({
  count: row[0],
  lastEventId: row[1],
  digest: row[2],
  signedAt: row[3],
  signature: row[4],
  position: BigInt(row[5]),
})

const prepareQueries = (db: DatabaseSync): Queries => {
  const readAll = db.prepare(
    `SELECT ${eventColumns} FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?`,
  )
  const readStream = db.prepare(
    `SELECT ${eventColumns} FROM events WHERE stream_id = ? AND stream_version >= ? ORDER BY stream_version LIMIT ?`,
  )
  readAll.setReturnArrays(true)
  readStream.setReturnArrays(true)
  const readCheckpoint = db.prepare("SELECT position FROM checkpoints WHERE name = ?")
  readCheckpoint.setReadBigInts(true)
  const storeCheckpoint = db.prepare(
    "INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position",
  )
  const storeSignedHead = db.prepare(
    `INSERT INTO signed_heads (${signedHeadColumns}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (count) DO NOTHING`,
  )
  const readSignedHeads = db.prepare(
    `SELECT ${signedHeadColumns} FROM signed_heads WHERE count > ? ORDER BY count LIMIT ?`,
  )
  const readLastSignedHead = db.prepare(`SELECT ${signedHeadColumns} FROM signed_heads ORDER BY count DESC LIMIT 1`)
  readSignedHeads.setReturnArrays(true)
  readLastSignedHead.setReturnArrays(true)
  const lastPosition = db.prepare("SELECT coalesce(max(global_position), 0) FROM events")
  lastPosition.setReturnArrays(true)
  return {
    lastPosition: () => {
      try {
        return (lastPosition.get() as unknown as readonly [number])[0]
      } catch {
        // Only widens a sync's reach (durability.ts): without it, the sync still covers the rows just read.
        return 0
      }
    },
    storeSignedHead: (head) =>
      void storeSignedHead.run(head.count, head.lastEventId, head.digest, head.signedAt, head.signature, head.position),
    readSignedHeads: (afterCount, maxCount) =>
      (readSignedHeads.all(afterCount, maxCount) as unknown as ReadonlyArray<SignedHeadRow>).map(signedHeadOfRow),
    readLastSignedHead: () => {
      const row = readLastSignedHead.get() as unknown as SignedHeadRow | undefined
      return row === undefined ? undefined : signedHeadOfRow(row)
    },
    readAll: (after, maxCount) => readAll.all(after, maxCount) as unknown as ReadonlyArray<EventRow>,
    readStream: (streamId, fromVersion, maxCount) =>
      readStream.all(streamId, fromVersion, maxCount) as unknown as ReadonlyArray<EventRow>,
    readCheckpoint: (name) => (readCheckpoint.get(name) as { position: bigint } | undefined)?.position,
    storeCheckpoint: (name, position) => void storeCheckpoint.run(name, position),
  }
}

const invalidRequest = (detail: string) => Effect.fail(new StoreError({ reason: "InvalidRequest", detail }))

const isCount = (n: number) => Number.isSafeInteger(n) && n > 0

/**
 * Opens the event store in the SQLite file at `path` (created when absent),
 * bringing its schema up to date. The database closes with the scope, after
 * the appends already queued are committed.
 */
export const makeSqliteEventStore = (
  path: string,
  options: SqliteStoreOptions = {},
): Effect.Effect<SqliteEventStore, StoreError, Scope.Scope> => openSqliteEventStore(path, options, threadPoolLogSync)

/**
 * `makeSqliteEventStore` with the syncs of the log made by `logSyncOf`: the
 * tests hold them back to show what waits for them. Not exported by the
 * package: `chaining` other than `chained` is for the sealing benchmark
 * alone, which measures the chain's cost (rows.ts).
 */
export const openSqliteEventStore = (
  path: string,
  options: SqliteStoreOptions,
  logSyncOf: (walPath: string) => LogSync,
  chaining: Chaining = chained,
): Effect.Effect<SqliteEventStore, StoreError, Scope.Scope> => {
  const settings = { ...sqliteStoreDefaults, ...options }
  // One signal over every connection the file is opened with, so that a follower is woken across a reopening.
  const signal = new AppendSignal()
  const open = () =>
    openFileNow(path, "the event store", settings, logSyncOf, (db, logSync) =>
      storeOnDatabase(db, path, settings, logSync, chaining, signal),
    )
  return Effect.map(
    Effect.acquireRelease(
      Effect.try({
        try: () => makeReopening(path, open),
        catch: (error) => storeErrorFrom(error, `opening the event store at ${path}`),
      }),
      (reopening) => Effect.sync(reopening.close),
    ),
    (reopening) => reopeningStore(reopening, signal, settings.followPollIntervalMs),
  )
}

const noStats: GroupCommitStats = { transactions: 0, appends: 0, largestBatchAppends: 0 }

/**
 * The store on whichever connection the file is open with now
 * (reopening.ts): each operation runs on the current one, and its
 * followers read through it too.
 */
const reopeningStore = (
  reopening: Reopening<SqliteEventStore>,
  signal: AppendSignal,
  followPollIntervalMs: number,
): SqliteEventStore => {
  const reading = <X, E>(use: (store: SqliteEventStore) => Effect.Effect<X, E>) => reopening.use("read", use)
  const writing = <X, E>(use: (store: SqliteEventStore) => Effect.Effect<X, E>) => reopening.use("write", use)
  const readAll: EventStoreShape["readAll"] = (options) => reading((store) => store.readAll(options))
  return {
    append: (streamId, events, expected) => writing((store) => store.append(streamId, events, expected)),
    appendMany: (parts) => writing((store) => store.appendMany(parts)),
    readStream: (streamId, options) => reading((store) => store.readStream(streamId, options)),
    readAll,
    follow: followByReading(readAll, signal, followPollIntervalMs),
    readCheckpoint: (name) => reading((store) => store.readCheckpoint(name)),
    storeCheckpoint: (name, position) => writing((store) => store.storeCheckpoint(name, position)),
    storeSignedHead: (head) => writing((store) => store.storeSignedHead(head)),
    readSignedHeads: (options) => reading((store) => store.readSignedHeads(options)),
    readLastSignedHead: reading((store) => store.readLastSignedHead),
    // The counters of the current connection: a reopening starts them again.
    stats: () => reopening.current()?.stats() ?? noStats,
    subjectKeys: {
      liveKeyOf: (subjectId) => reading((store) => store.subjectKeys.liveKeyOf(subjectId)),
      keyById: (keyId) => reading((store) => store.subjectKeys.keyById(keyId)),
      keysById: (keyIds) => reading((store) => store.subjectKeys.keysById(keyIds)),
      addKey: (key) => writing((store) => store.subjectKeys.addKey(key)),
      forget: (subjectId, at, by) => writing((store) => store.subjectKeys.forget(subjectId, at, by)),
      allKeys: (afterKeyId, maxCount) => reading((store) => store.subjectKeys.allKeys(afterKeyId, maxCount)),
      liveKeys: (afterKeyId, maxCount) => reading((store) => store.subjectKeys.liveKeys(afterKeyId, maxCount)),
      rewrap: (keyId, fromMasterKeyId, wrappedKey, masterKeyId) =>
        writing((store) => store.subjectKeys.rewrap(keyId, fromMasterKeyId, wrappedKey, masterKeyId)),
    },
  }
}

const storeOnDatabase = (
  db: DatabaseSync,
  path: string,
  settings: Required<SqliteStoreOptions>,
  logSync: LogSync,
  chaining: Chaining,
  signal: AppendSignal,
): OnFile<SqliteEventStore> => {
  const queries = prepareQueries(db)
  const durability = makeDurability(settings.synchronous, logSync, path, queries.lastPosition)
  const writer = makeGroupCommitWriter(db, {
    appendBatchMaxEvents: settings.appendBatchMaxEvents,
    streamVersionCacheMaxStreams: settings.streamVersionCacheMaxStreams,
    path,
    durability,
    onAcknowledged: () => signal.notify(),
    chaining,
  })

  /** Runs a read or a small write; a JSON text that no longer parses is a damaged file. */
  const attempt = <A>(doing: string, body: () => A): Effect.Effect<A, StoreError> =>
    Effect.try({
      try: body,
      catch: (error) =>
        error instanceof DamagedEventJson
          ? new StoreError({ reason: "Corrupt", detail: `${doing}: ${error.message}`, damagedEvent: error.event })
          : error instanceof SyntaxError
            ? new StoreError({ reason: "Corrupt", detail: `${doing}: a stored event's JSON is damaged`, cause: error })
            : storeErrorFrom(error, `${doing} in ${path}`),
    })

  /**
   * Rows as records, handed out once they are durable: a read that reaches
   * past the position the store knows durable (or its own under "normal")
   * waits for a sync of the log that covers it, at every level
   * (durability.ts: another process may have committed them unsynced).
   */
  const durableRecords = (
    doing: string,
    read: () => ReadonlyArray<EventRow>,
    wholeEventsOf?: (streamId: string) => boolean,
  ) =>
    Effect.flatMap(
      attempt(doing, () => read()),
      (rows) => {
        const records = attempt(doing, () => recordsOfRows(rows, wholeEventsOf))
        const last = rows.at(-1)
        return last === undefined ? records : Effect.andThen(durability.durableThrough(last[0]), records)
      },
    )

  const readAll: EventStoreShape["readAll"] = ({ after, maxCount, wholeEventsOf }) =>
    isCount(maxCount)
      ? durableRecords(
          "reading the log",
          () => queries.readAll(after, Math.min(maxCount, readPageMaxEvents)),
          wholeEventsOf,
        )
      : invalidRequest(`a page holds at least one event, not ${maxCount}`)

  /**
   * One callback per append, checked and encoded inside it: the caller's
   * fiber suspends once, until the group commit holding its events settles
   * it. Every part in one savepoint of one transaction: all or none.
   */
  const appendMany: EventStoreShape["appendMany"] = (parts) =>
    Effect.clockWith((clock) =>
      Effect.callback<ReadonlyArray<AppendResult>, VersionConflict | StoreError>((resume) => {
        const problem = appendManyRequestProblem(parts)
        if (problem !== undefined) {
          resume(Effect.fail(problem))
          return
        }
        if (!db.isOpen) {
          resume(storeClosed(path))
          return
        }
        const encodedParts: Array<EncodedPart> = []
        for (const { streamId, events, expected } of parts) {
          const encoded = encodeEvents(events, chaining.encode)
          if (encoded instanceof StoreError) {
            resume(Effect.fail(encoded))
            return
          }
          encodedParts.push({ streamId, expected, events: encoded })
        }
        const pending: PendingAppend = {
          parts: encodedParts,
          recordedAt: clock.currentTimeMillisUnsafe(),
          settle: resume,
          cancelled: false,
        }
        writer.submit(pending)
        // An interrupted caller's append is skipped if its batch has not been written yet.
        return Effect.sync(() => {
          pending.cancelled = true
        })
      }),
    )

  const store: SqliteEventStore = {
    append: (streamId, events, expected) =>
      Effect.map(appendMany([{ streamId, events, expected }]), (results) => results[0]!),
    appendMany,
    readStream: (streamId, options) => {
      const fromVersion = Math.max(options?.fromVersion ?? 1, 1)
      const maxCount = options?.maxCount ?? -1 // SQLite reads a negative LIMIT as no limit.
      if (options?.maxCount !== undefined && !isCount(maxCount))
        return invalidRequest(`a read holds at least one event, not ${maxCount}`)
      return durableRecords(`reading ${streamId}`, () => queries.readStream(streamId, fromVersion, maxCount))
    },
    readAll,
    follow: followByReading(readAll, signal, settings.followPollIntervalMs),
    readCheckpoint: (name) => attempt(`reading checkpoint ${name}`, () => queries.readCheckpoint(name) ?? logStart),
    storeCheckpoint: (name, position) =>
      Effect.andThen(
        attempt(`storing checkpoint ${name}`, () => queries.storeCheckpoint(name, position)),
        durability.afterWrite,
      ),
    storeSignedHead: (head) =>
      Effect.andThen(
        attempt(`storing the signed head at ${head.count} events`, () => queries.storeSignedHead(head)),
        durability.afterWrite,
      ),
    readSignedHeads: ({ afterCount, maxCount }) =>
      isCount(maxCount)
        ? attempt("reading the signed heads", () => queries.readSignedHeads(afterCount, maxCount))
        : invalidRequest(`a page holds at least one head, not ${maxCount}`),
    readLastSignedHead: attempt("reading the last signed head", queries.readLastSignedHead),
    stats: writer.stats,
    // A new key is answered at once: the append that names it is acknowledged after a sync that carries it (subjectKeys.ts).
    subjectKeys: sqliteSubjectKeys(db, path, durability.afterWrite, Effect.void),
  }
  return {
    opened: store,
    close: () => {
      writer.flush()
      durability.close()
      db.close()
    },
  }
}

const storeClosed = (path: string) =>
  Effect.fail(new StoreError({ reason: "Unavailable", detail: `the event store at ${path} is closed` }))

/**
 * The EventStore service on the SQLite file at `path`, with the key table of
 * the same file as SubjectKeys; the file closes when the layer's scope does.
 */
export const layerSqlite = (
  path: string,
  options?: SqliteStoreOptions,
): Layer.Layer<EventStore | SubjectKeys, StoreError> =>
  Layer.effectContext(
    Effect.map(makeSqliteEventStore(path, options), (store) =>
      Context.make(EventStore, store).pipe(Context.add(SubjectKeys, store.subjectKeys)),
    ),
  )
