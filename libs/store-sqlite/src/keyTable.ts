/**
 * The key table of a SQLite file alone: the data keys of sealed events kept
 * in another store (a KurrentDB store's `keyTable=sqlite:PATH`). No append
 * to this file will carry a new key to disk before the events that name it
 * are acknowledged elsewhere, so here a new key is answered only once on
 * disk, at every level, "normal" included (`Durability.onDisk`,
 * subjectKeys.ts): an acknowledged event must never name a key a power loss
 * can take back. Built in, so that no caller can open such a file without it.
 *
 * The file is opened as a store's is, migrations and all: it holds the
 * store's tables too, and they stay empty. One schema version then says
 * what any Mizan file holds, however it was opened, and the one migration
 * path (schema.ts) and its tests serve both uses; a key table's own
 * migrations would be a second history to keep apart from the first. Only
 * the event store is not built on it: no group-commit writer, no follower.
 */
import { type StoreError, SubjectKeys, type SubjectKeysShape } from "@mizan/eventsourcing"
import { type Effect, Layer, type Scope } from "effect"
import { openOnFile } from "./connection.ts"
import { makeDurability } from "./durability.ts"
import { type LogSync, threadPoolLogSync } from "./logSync.ts"
import { type SqliteStoreOptions, sqliteStoreDefaults } from "./store.ts"
import { sqliteSubjectKeys } from "./subjectKeys.ts"

/** What a key table alone is opened with: the store's own options that concern it (README.md). */
export type SqliteKeyTableOptions = Pick<SqliteStoreOptions, "synchronous" | "busyTimeoutMs">

/** No event is read from a key table, so its durability never asks where the file's last event stands. */
const noEvents = () => 0

/**
 * `layerSqliteKeyTable`'s key table, with the syncs of the log made by
 * `logSyncOf`: the tests hold them back to show what waits for them. Not
 * exported by the package.
 */
export const openSqliteKeyTable = (
  path: string,
  options: SqliteKeyTableOptions = {},
  logSyncOf: (walPath: string) => LogSync = threadPoolLogSync,
): Effect.Effect<SubjectKeysShape, StoreError, Scope.Scope> => {
  const settings = { ...sqliteStoreDefaults, ...options }
  return openOnFile(path, "the key table", settings, logSyncOf, (db, logSync) => {
    const durability = makeDurability(settings.synchronous, logSync, path, noEvents)
    return {
      opened: sqliteSubjectKeys(db, path, durability.afterWrite, durability.onDisk),
      close: () => {
        durability.close()
        db.close()
      },
    }
  })
}

/**
 * The key table of the SQLite file at `path` (created when absent) as
 * SubjectKeys, for events kept in another store; the file closes when the
 * layer's scope does.
 */
export const layerSqliteKeyTable = (
  path: string,
  options?: SqliteKeyTableOptions,
): Layer.Layer<SubjectKeys, StoreError> => Layer.effect(SubjectKeys, openSqliteKeyTable(path, options))
