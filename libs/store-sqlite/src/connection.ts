/**
 * Opening the store's file: one connection, write-ahead log, the chosen
 * synchronous level, and the schema brought up to date; and the syncs of
 * its log beside it.
 */
import { DatabaseSync } from "node:sqlite"
import { StoreError } from "@mizan/eventsourcing"
import { Effect, type Scope } from "effect"
import { type LogSync, walPathOf } from "./logSync.ts"
import { checkFileIsOurs, migrate } from "./schema.ts"
import { storeErrorFrom } from "./sqliteErrors.ts"

/**
 * How far an acknowledged commit survives, and who waits for the disk
 * (README.md, Durability):
 * - "full-offloaded": SQLite commits at NORMAL and the store syncs the
 *   write-ahead log in libuv's thread pool before acknowledging
 *   (logSync.ts); a commit survives a process kill and a power loss, and
 *   the event loop runs on while the disk syncs. The default.
 * - "full": SQLite syncs the log at every commit, on the event loop; the
 *   same durability.
 * - "normal": the log is written at every commit but synced only at
 *   checkpoints; a commit survives a process kill, not a power loss.
 * The level decides when this store's own appends are acknowledged; at
 * every level, reads hand out another process's commits only once a sync of
 * the log put them on disk (durability.ts).
 */
export type Synchronous = "full-offloaded" | "full" | "normal"

/** Every level, the default first. */
export const synchronousLevels: ReadonlyArray<Synchronous> = ["full-offloaded", "full", "normal"]

/** The `PRAGMA synchronous` each level runs SQLite at: "full-offloaded" syncs by itself, after the commit. */
const pragmaOf = { "full-offloaded": "NORMAL", full: "FULL", normal: "NORMAL" } as const satisfies Record<
  Synchronous,
  string
>

export interface ConnectionOptions {
  readonly synchronous: Synchronous
  /** How long a statement waits for another connection's write lock before failing with Locked. */
  readonly busyTimeoutMs: number
}

/**
 * How many pages the write-ahead log grows to before SQLite copies it back
 * into the database file (SQLite's default is 1,000). A checkpoint syncs both
 * files and copies each page once however often it changed, so checkpointing
 * less often saves the many small commits of group commit most of that work:
 * at 64 appends per commit, raw SQLite commits about 60% more rows per second
 * with 8,000 than with 1,000 (tools/bench/README.md). The cost is a log of up
 * to 32 MB (at 4 KiB pages) that a reopened file replays.
 */
export const walCheckpointPages = 8_000

/** What a file is opened as, for the errors of its opening: "opening the key table at PATH: ...". */
export type OpenedAs = "the event store" | "the key table"

/** Opens (creating when absent) the file at `path` as `what`. Throws a StoreError saying what is wrong with the file. */
export const openDatabase = (path: string, what: OpenedAs, options: ConnectionOptions): DatabaseSync => {
  if (!Object.hasOwn(pragmaOf, options.synchronous))
    throw new StoreError({
      reason: "InvalidRequest",
      detail: `synchronous is ${JSON.stringify(options.synchronous)}, not one of ${Object.keys(pragmaOf).join(", ")}`,
    })
  let db: DatabaseSync
  try {
    db = new DatabaseSync(path, { timeout: options.busyTimeoutMs })
  } catch (error) {
    throw storeErrorFrom(error, `opening ${what} at ${path}`)
  }
  try {
    // Before anything is written (even the journal mode, which lives in the header): is this file ours to write?
    checkFileIsOurs(db, path)
    const mode = db.prepare("PRAGMA journal_mode = WAL").get()?.journal_mode
    if (mode !== "wal")
      throw new StoreError({
        reason: "Unavailable",
        detail: `${path} cannot use a write-ahead log (its journal mode stays ${String(mode)}); the store needs a file on a local disk`,
      })
    db.exec(`PRAGMA synchronous = ${pragmaOf[options.synchronous]}`)
    // A forgotten subject's wrapped key is overwritten with zeros in the file, not left in a free page.
    db.exec("PRAGMA secure_delete = ON")
    db.exec(`PRAGMA wal_autocheckpoint = ${walCheckpointPages}`)
    migrate(db, path)
    return db
  } catch (error) {
    db.close()
    throw storeErrorFrom(error, `opening ${what} at ${path}`)
  }
}

/** What is built on an open file (an event store, a key table alone), and how to close it, the file last. */
export interface OnFile<A> {
  readonly opened: A
  /** Finishes what the file still owes (the queued appends, their syncs), then closes it. */
  readonly close: () => void
}

/**
 * Opens the file at `path` as `what` and the syncs of its log (made by
 * `logSyncOf`), and builds on them what `build` makes; whatever fails
 * half-way closes what was already open. Throws a StoreError.
 */
export const openFileNow = <A>(
  path: string,
  what: OpenedAs,
  options: ConnectionOptions,
  logSyncOf: (walPath: string) => LogSync,
  build: (db: DatabaseSync, logSync: LogSync) => OnFile<A>,
): OnFile<A> => {
  try {
    const db = openDatabase(path, what, options)
    let logSync: LogSync | undefined
    try {
      logSync = logSyncOf(walPathOf(path))
      return build(db, logSync)
    } catch (error) {
      logSync?.close()
      db.close()
      throw error
    }
  } catch (error) {
    throw storeErrorFrom(error, `opening ${what} at ${path}`)
  }
}

/** `openFileNow` as an effect, what it opened closed with the scope. */
export const openOnFile = <A>(
  path: string,
  what: OpenedAs,
  options: ConnectionOptions,
  logSyncOf: (walPath: string) => LogSync,
  build: (db: DatabaseSync, logSync: LogSync) => OnFile<A>,
): Effect.Effect<A, StoreError, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.try({
        try: () => openFileNow(path, what, options, logSyncOf, build),
        catch: (error) => storeErrorFrom(error, `opening ${what} at ${path}`),
      }),
      (onFile) => Effect.sync(onFile.close),
    ),
    (onFile) => onFile.opened,
  )
