/**
 * The store's schema as numbered migrations. `PRAGMA user_version` holds the
 * number of the last one applied. Each migration runs in its own write
 * transaction together with the bump of user_version (both live in the same
 * file), so a crash leaves the old schema or the new one, never half of it.
 * Append new migrations at the end; never edit one that has shipped.
 */
import type { DatabaseSync } from "node:sqlite"
import { StoreError } from "@mizan/eventsourcing"
import { chainStoredEvents } from "./chainMigration.ts"
import { storeErrorFrom } from "./sqliteErrors.ts"

export interface Migration {
  readonly version: number
  readonly description: string
  readonly sql: string
  /** Work SQL alone cannot do (hashing), run after `sql` in the same transaction. */
  readonly afterSql?: (db: DatabaseSync) => void
}

/** Marks a file as a Mizan event store ("MZN" and a 1), so that another application's database is never touched. */
export const applicationId = 0x4d5a4e01

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    description: "events and checkpoints",
    sql: `
      PRAGMA application_id = ${applicationId};
      CREATE TABLE events (
        -- The rowid: SQLite gives max + 1, and nothing is ever deleted, so the global order has no gaps.
        global_position INTEGER PRIMARY KEY,
        event_id TEXT NOT NULL UNIQUE,
        stream_id TEXT NOT NULL,
        stream_version INTEGER NOT NULL,
        type TEXT NOT NULL,
        schema_version INTEGER NOT NULL,
        data TEXT NOT NULL, -- JSON
        metadata TEXT, -- JSON (correlation and causation ids), NULL when there is none
        recorded_at INTEGER NOT NULL, -- ms since the epoch
        -- The second guard behind the expected-version check; also the index that reads a stream.
        UNIQUE (stream_id, stream_version)
      ) STRICT;
      CREATE TABLE checkpoints (
        name TEXT PRIMARY KEY,
        position INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    description: "the tamper-evident log: chain hashes and signed heads",
    sql: `
      -- SHA-256 hex over the stream's previous chain hash and this event (libs/eventsourcing/src/chain/chain.ts).
      -- SQLite adds a NOT NULL column only with a default; the migration fills every stored row at once.
      ALTER TABLE events ADD COLUMN chain_hash TEXT NOT NULL DEFAULT '';
      -- Signed heads of the log, apart from it: cutting off the log's tail leaves the heads that covered it.
      CREATE TABLE signed_heads (
        count INTEGER PRIMARY KEY, -- events in the log up to and including last_event_id
        last_event_id TEXT NOT NULL,
        digest TEXT NOT NULL,
        signed_at INTEGER NOT NULL, -- ms since the epoch
        signature TEXT NOT NULL, -- Base64 SHA256withRSA
        position INTEGER NOT NULL -- where this file holds last_event_id (not signed: an import moves it)
      ) STRICT;
    `,
    afterSql: chainStoredEvents,
  },
  {
    version: 3,
    description: "the key table of sealed personal data",
    sql: `
      -- One data key per data subject, wrapped by a master key that is not in this file.
      -- Forgetting a subject sets wrapped_key to NULL: its sealed fields can no longer be opened.
      CREATE TABLE subject_keys (
        key_id TEXT PRIMARY KEY,
        subject_id TEXT NOT NULL, -- kind: and a keyed HMAC, never the personal value
        wrapped_key TEXT, -- Base64 AES-256-GCM under master_key_id; NULL once forgotten
        master_key_id TEXT NOT NULL,
        created_at INTEGER NOT NULL, -- ms since the epoch
        forgotten_at INTEGER, -- ms since the epoch
        forgotten_by TEXT
      ) STRICT;
      -- At most one live key per subject: two writers adding one at once keep the first.
      CREATE UNIQUE INDEX subject_keys_live ON subject_keys (subject_id) WHERE wrapped_key IS NOT NULL;
    `,
  },
]

export const schemaVersionCurrent = migrations.at(-1)?.version ?? 0

const pragmaNumber = (db: DatabaseSync, pragma: "user_version" | "application_id"): number =>
  Number(db.prepare(`PRAGMA ${pragma}`).get()?.[pragma] ?? 0)

const hasTables = (db: DatabaseSync): boolean => db.prepare("SELECT 1 FROM sqlite_schema LIMIT 1").get() !== undefined

/**
 * Answers the file's schema version, or refuses a file this code must not
 * write: another application's database (Unavailable), one from a newer
 * schema (NewerSchema). Reading the header also fails, with SQLite's
 * NOTADB, for a file that is no database at all.
 */
export const checkFileIsOurs = (db: DatabaseSync, path: string, knownVersion = schemaVersionCurrent): number => {
  const version = pragmaNumber(db, "user_version")
  const foreign = version === 0 ? hasTables(db) : pragmaNumber(db, "application_id") !== applicationId
  if (foreign)
    throw new StoreError({
      reason: "Unavailable",
      detail: `${path} is another application's SQLite database, not a Mizan event store; it was left untouched`,
    })
  if (version > knownVersion)
    throw new StoreError({
      reason: "NewerSchema",
      detail: `${path} has event store schema version ${version}, newer than version ${knownVersion} that this code knows; upgrade Mizan to open it`,
    })
  return version
}

export interface MigrationOutcome {
  /** The schema version the file had when opened. */
  readonly from: number
  /** The migrations this call applied, in order (none when the file was current). */
  readonly applied: ReadonlyArray<number>
}

/**
 * Brings the file at `path` to the last version of `list`. Throws a
 * StoreError: NewerSchema for a file from newer code, Locked when another
 * writer holds the file, Corrupt when it is not a database.
 */
export const migrate = (
  db: DatabaseSync,
  path: string,
  list: ReadonlyArray<Migration> = migrations,
): MigrationOutcome => {
  const target = list.at(-1)?.version ?? 0
  const from = checkFileIsOurs(db, path, target)
  const applied: Array<number> = []
  for (const migration of list.filter((m) => m.version > from)) {
    try {
      db.exec("BEGIN IMMEDIATE")
      // Another process may have migrated while this one waited for the write lock.
      if (checkFileIsOurs(db, path, target) < migration.version) {
        db.exec(migration.sql)
        migration.afterSql?.(db)
        db.exec(`PRAGMA user_version = ${migration.version}`)
        applied.push(migration.version)
      }
      db.exec("COMMIT")
    } catch (error) {
      if (db.isOpen && db.isTransaction) db.exec("ROLLBACK")
      throw storeErrorFrom(error, `migrating ${path} to schema version ${migration.version} (${migration.description})`)
    }
  }
  return { from, applied }
}
