/**
 * The key table of sealed personal data (`subject_keys`, schema version 3)
 * on the store's own connection. Its statements are short and synchronous,
 * so they never land inside a group-commit transaction. A forget and a
 * re-wrap are answered once durable (`afterWrite`, durability.ts): a
 * forgotten key must not come back, and a re-wrapped one must not be left
 * wrapped only by a master key about to be retired. A new key, when the
 * events are in the same file, is answered at once: nothing relies on it
 * but the sealed events appended after it, and their acknowledgement waits
 * for a sync of the same log that covers the key's earlier commit too; a
 * key lost with unacknowledged events seals nothing anyone was told is
 * stored. (Waiting there would also let appends that need no new key
 * overtake one that does.) When the file holds the keys alone (keyTable.ts:
 * the events are in KurrentDB), no append here syncs anything, so a new key
 * is answered once on disk, at every level (`Durability.onDisk`): an
 * acknowledged event must never name a key a power loss can take back.
 */
import type { DatabaseSync } from "node:sqlite"
import {
  columnsOfSubjectKey,
  type StoreError,
  type SubjectKeyColumns,
  type SubjectKeysShape,
  subjectKeyOfColumns,
} from "@mizan/eventsourcing"
import { Effect } from "effect"
import { storeErrorFrom } from "./sqliteErrors.ts"

/** In the order of `SubjectKeyColumns`: a row read as an array is one. */
const columns = "key_id, subject_id, wrapped_key, master_key_id, created_at, forgotten_at, forgotten_by"

export const sqliteSubjectKeys = (
  db: DatabaseSync,
  path: string,
  afterWrite: Effect.Effect<void, StoreError>,
  /** What a new key waits for before it is answered: nothing, or `onDisk` when the file holds the keys alone (keyTable.ts). */
  afterNewKey: Effect.Effect<void, StoreError>,
): SubjectKeysShape => {
  const statement = (sql: string) => {
    const prepared = db.prepare(sql)
    prepared.setReturnArrays(true)
    return prepared
  }
  const liveOf = statement(`SELECT ${columns} FROM subject_keys WHERE subject_id = ? AND wrapped_key IS NOT NULL`)
  const byId = statement(`SELECT ${columns} FROM subject_keys WHERE key_id = ?`)
  // Any number of ids as one JSON array: one statement, prepared once, whatever a page names.
  const byIds = statement(`SELECT ${columns} FROM subject_keys WHERE key_id IN (SELECT value FROM json_each(?))`)
  const insert = db.prepare(`INSERT INTO subject_keys (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
  const forget = db.prepare(
    "UPDATE subject_keys SET wrapped_key = NULL, forgotten_at = ?, forgotten_by = ? WHERE subject_id = ? AND wrapped_key IS NOT NULL",
  )
  const all = statement(`SELECT ${columns} FROM subject_keys WHERE key_id > ? ORDER BY key_id LIMIT ?`)
  const live = statement(
    `SELECT ${columns} FROM subject_keys WHERE wrapped_key IS NOT NULL AND key_id > ? ORDER BY key_id LIMIT ?`,
  )
  const rewrap = db.prepare(
    "UPDATE subject_keys SET wrapped_key = ?, master_key_id = ? WHERE key_id = ? AND master_key_id = ? AND wrapped_key IS NOT NULL",
  )
  const one = (row: unknown) => (row === undefined ? undefined : subjectKeyOfColumns(row as SubjectKeyColumns))
  const attempt = <A>(doing: string, body: () => A) =>
    Effect.try({ try: body, catch: (error) => storeErrorFrom(error, `${doing} in ${path}`) })
  const durably = <A>(doing: string, body: () => A) => Effect.tap(attempt(doing, body), () => afterWrite)

  return {
    liveKeyOf: (subjectId) => attempt("reading a subject's key", () => one(liveOf.get(subjectId))),
    keyById: (keyId) => attempt(`reading data key ${keyId}`, () => one(byId.get(keyId))),
    keysById: (keyIds) =>
      keyIds.length === 0
        ? Effect.succeed([])
        : attempt(`reading ${keyIds.length} data keys`, () =>
            (byIds.all(JSON.stringify(keyIds)) as unknown as ReadonlyArray<SubjectKeyColumns>).map(subjectKeyOfColumns),
          ),
    addKey: (key) =>
      Effect.tap(
        attempt("adding a data key", () => {
          insert.run(...columnsOfSubjectKey(key))
          return one(key.wrappedKey === undefined ? byId.get(key.keyId) : liveOf.get(key.subjectId)) ?? key
        }),
        () => afterNewKey,
      ),
    forget: (subjectId, at, by) =>
      durably("forgetting a subject", () => {
        const destroyed = Number(forget.run(at, by, subjectId).changes)
        // The old wrapped key's bytes: zeroed in the file by secure_delete, and gone from the log once it is truncated.
        if (destroyed > 0) db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        return destroyed
      }),
    allKeys: (afterKeyId, maxCount) =>
      attempt("reading the data keys", () =>
        (all.all(afterKeyId, maxCount) as unknown as ReadonlyArray<SubjectKeyColumns>).map(subjectKeyOfColumns),
      ),
    liveKeys: (afterKeyId, maxCount) =>
      attempt("reading the live data keys", () =>
        (live.all(afterKeyId, maxCount) as unknown as ReadonlyArray<SubjectKeyColumns>).map(subjectKeyOfColumns),
      ),
    rewrap: (keyId, fromMasterKeyId, wrappedKey, masterKeyId) =>
      durably(
        `re-wrapping data key ${keyId}`,
        () => Number(rewrap.run(wrappedKey, masterKeyId, keyId, fromMasterKeyId).changes) === 1,
      ),
  }
}
