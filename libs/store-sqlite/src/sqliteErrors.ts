/**
 * SQLite's failures told in the port's words. node:sqlite throws an Error
 * whose `errcode` is SQLite's extended result code and `errstr` its text
 * (https://sqlite.org/rescode.html); the primary code is the low byte.
 */
import { StoreError, type StoreErrorReason } from "@mizan/eventsourcing"

const SQLITE_BUSY = 5
const SQLITE_LOCKED = 6
const SQLITE_READONLY = 8
const SQLITE_CORRUPT = 11
const SQLITE_NOTADB = 26

/** SQLite's extended result code of a thrown error, if SQLite threw it. */
export const sqliteResultCode = (error: unknown): number | undefined => {
  if (typeof error !== "object" || error === null || !("errcode" in error)) return undefined
  return typeof error.errcode === "number" ? error.errcode : undefined
}

const reasonOf = (error: unknown): StoreErrorReason => {
  const code = sqliteResultCode(error)
  switch (code === undefined ? undefined : code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "Locked"
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return "Corrupt"
    default:
      // SQLITE_CANTOPEN, I/O errors, a full disk, a closed connection: the store cannot be used.
      return "Unavailable"
  }
}

const explanation: Partial<Record<StoreErrorReason, string>> = {
  Locked: "another connection holds the database's write lock for longer than the busy timeout",
  Corrupt: "the file is not an SQLite database or is damaged",
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * A StoreError for something that went wrong `doing` what it says
 * ("appending to /data/mizan.db"). SQLite's messages name tables and
 * columns, never the values bound to a statement, so no event data leaks.
 */
export const storeErrorFrom = (error: unknown, doing: string): StoreError => {
  if (error instanceof StoreError) return error
  const reason = reasonOf(error)
  const why = explanation[reason]
  const detail = `${doing}: ${messageOf(error)}${why === undefined ? "" : ` (${why})`}`
  return new StoreError({ reason, detail, cause: error })
}

/** Whether SQLite refused a write because it breaks a UNIQUE constraint on these columns. */
export const breaksUniqueConstraint = (error: unknown, columns: string): boolean =>
  sqliteResultCode(error) === 2067 /* SQLITE_CONSTRAINT_UNIQUE */ && messageOf(error).endsWith(columns)

/**
 * Whether a store's failure is SQLite refusing to write a connection it
 * opened read-only (`SQLITE_READONLY` and its extended codes): SQLite opens a
 * file it may not write read-only, silently, and the connection stays so
 * after the permission returns; only a new connection writes (reopening.ts).
 */
export const isReadOnlyFailure = (error: unknown): boolean => {
  if (typeof error !== "object" || error === null || !("cause" in error)) return false
  const code = sqliteResultCode(error.cause)
  return code !== undefined && (code & 0xff) === SQLITE_READONLY
}
