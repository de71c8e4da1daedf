/**
 * The key table of sealed personal data (`subject_keys`, migration 3) on
 * the store's pool. A forget runs VACUUM on the table afterwards, so that
 * the destroyed wrapped key leaves the table's pages, not only its live
 * rows; copies in PostgreSQL's write-ahead log and in backups stay wrapped
 * by the master key until it is rotated with --retire (README.md).
 */
import { columnsOfSubjectKey, type SubjectKey, type SubjectKeysShape, subjectKeyOfColumns } from "@mizan/eventsourcing"
import { Effect } from "effect"
import type pg from "pg"
import { storeErrorFrom } from "./errors.ts"
import type { Tables } from "./tables.ts"

interface KeyRow {
  readonly key_id: string
  readonly subject_id: string
  readonly wrapped_key: string | null
  readonly master_key_id: string
  readonly created_at_ms: string
  readonly forgotten_at_ms: string | null
  readonly forgotten_by: string | null
}

/** In the order of `SubjectKeyColumns`, as an insert gives them. */
const columns = "key_id, subject_id, wrapped_key, master_key_id, created_at_ms, forgotten_at_ms, forgotten_by"

/** The row's milliseconds come as text (bigint), read back as numbers. */
const keyOfRow = (row: KeyRow): SubjectKey =>
  subjectKeyOfColumns([
    row.key_id,
    row.subject_id,
    row.wrapped_key,
    row.master_key_id,
    Number(row.created_at_ms),
    row.forgotten_at_ms === null ? null : Number(row.forgotten_at_ms),
    row.forgotten_by,
  ])

export const postgresSubjectKeys = (pool: pg.Pool, tables: Tables): SubjectKeysShape => {
  const t = tables.subjectKeys
  const rows = (doing: string, text: string, values: ReadonlyArray<unknown>) =>
    Effect.tryPromise({
      try: () => pool.query<KeyRow>(text, [...values]),
      catch: storeErrorFrom(doing),
    })
  const byId = (keyId: string) =>
    Effect.map(rows(`reading data key ${keyId}`, `SELECT ${columns} FROM ${t} WHERE key_id = $1`, [keyId]), (result) =>
      result.rows[0] === undefined ? undefined : keyOfRow(result.rows[0]),
    )
  const liveOf = (subjectId: string) =>
    Effect.map(
      rows("reading a subject's key", `SELECT ${columns} FROM ${t} WHERE subject_id = $1 AND wrapped_key IS NOT NULL`, [
        subjectId,
      ]),
      (result) => (result.rows[0] === undefined ? undefined : keyOfRow(result.rows[0])),
    )
  const byIds = (keyIds: ReadonlyArray<string>) =>
    keyIds.length === 0
      ? Effect.succeed([])
      : Effect.map(
          rows(`reading ${keyIds.length} data keys`, `SELECT ${columns} FROM ${t} WHERE key_id = ANY($1::text[])`, [
            keyIds,
          ]),
          (result) => result.rows.map(keyOfRow),
        )
  return {
    liveKeyOf: liveOf,
    keyById: byId,
    keysById: byIds,
    addKey: (key) =>
      Effect.flatMap(
        rows(
          "adding a data key",
          `INSERT INTO ${t} (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
          columnsOfSubjectKey(key),
        ),
        () =>
          Effect.map(key.wrappedKey === undefined ? byId(key.keyId) : liveOf(key.subjectId), (found) => found ?? key),
      ),
    forget: (subjectId, at, by) =>
      Effect.flatMap(
        rows(
          "forgetting a subject",
          `UPDATE ${t} SET wrapped_key = NULL, forgotten_at_ms = $1, forgotten_by = $2 WHERE subject_id = $3 AND wrapped_key IS NOT NULL`,
          [at, by, subjectId],
        ),
        (result) =>
          (result.rowCount ?? 0) === 0
            ? Effect.succeed(0)
            : Effect.as(rows("vacuuming the key table", `VACUUM ${t}`, []), result.rowCount ?? 0),
      ),
    allKeys: (afterKeyId, maxCount) =>
      Effect.map(
        rows("reading the data keys", `SELECT ${columns} FROM ${t} WHERE key_id > $1 ORDER BY key_id LIMIT $2`, [
          afterKeyId,
          maxCount,
        ]),
        (result) => result.rows.map(keyOfRow),
      ),
    liveKeys: (afterKeyId, maxCount) =>
      Effect.map(
        rows(
          "reading the live data keys",
          `SELECT ${columns} FROM ${t} WHERE wrapped_key IS NOT NULL AND key_id > $1 ORDER BY key_id LIMIT $2`,
          [afterKeyId, maxCount],
        ),
        (result) => result.rows.map(keyOfRow),
      ),
    rewrap: (keyId, fromMasterKeyId, wrappedKey, masterKeyId) =>
      Effect.map(
        rows(
          `re-wrapping data key ${keyId}`,
          `UPDATE ${t} SET wrapped_key = $1, master_key_id = $2 WHERE key_id = $3 AND master_key_id = $4 AND wrapped_key IS NOT NULL`,
          [wrappedKey, masterKeyId, keyId, fromMasterKeyId],
        ),
        (result) => result.rowCount === 1,
      ),
  }
}
