/**
 * A file opened again when its connection cannot write. SQLite opens a file
 * it may not write (a read-only file, a read-only mount) read-only, without
 * a word, and the connection stays read-only after the permission returns:
 * only a new connection writes. So a write that SQLite refuses as read-only
 * (`isReadOnlyFailure`) closes the connection and opens the file again, at
 * most once per delay (100 ms, doubling up to 5 s, back to 100 ms after a
 * write goes through), and a store started on a read-only file writes again
 * as soon as its first write after the permission returns, with no restart.
 *
 * The old connection is closed before the new one opens: SQLite shares one
 * process's shared-memory index (`-shm`) between its connections to a file,
 * and a new one would inherit a read-only index from an old one still open.
 * A `-shm` or `-wal` that SQLite made while the database file was
 * read-only has the file's read-only mode, and keeps it when the file is
 * made writable again (`chmod` on the database alone): the reopening gives
 * the two the database file's mode again, as SQLite would have made them.
 * Nothing is written by the reopening itself: a refused write was answered
 * as failed and stored nothing.
 */
import { accessSync, chmodSync, constants, existsSync, statSync } from "node:fs"
import { StoreError } from "@mizan/eventsourcing"
import { Clock, Effect } from "effect"
import type { OnFile } from "./connection.ts"
import { isReadOnlyFailure, storeErrorFrom } from "./sqliteErrors.ts"

/** The first wait before the file is opened again after a reopening that still could not write. */
export const reopenDelayFirstMs = 100

/** The longest such wait: how long after its permission returns a store at worst still refuses writes. */
export const reopenDelayMaxMs = 5_000

/** Whether an operation writes: only a write that goes through shows that the connection writes. */
export type Access = "read" | "write"

export interface Reopening<A> {
  /** Runs `use` on what the current connection opened; a read-only refusal reopens the file when the delay allows. */
  readonly use: <X, E>(access: Access, use: (opened: A) => Effect.Effect<X, E>) => Effect.Effect<X, E | StoreError>
  /** What the current connection opened, if the file is open. */
  readonly current: () => A | undefined
  /** Closes the current connection, for good. */
  readonly close: () => void
}

/** Whether this process may write the file at `path`. */
const writable = (path: string): boolean => {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}

/** The files SQLite writes beside the database file. */
const companionsOf = (path: string) => [`${path}-wal`, `${path}-shm`]

/**
 * Whether a connection opened now would be read-only: this process may not
 * write the file, or a companion it made that SQLite would open read-only.
 */
const opensReadOnly = (path: string): boolean =>
  !writable(path) || companionsOf(path).some((companion) => existsSync(companion) && !writable(companion))

/**
 * Gives the `-wal` and `-shm` of a writable database file at `path` the
 * file's mode when this process may not write them. A companion that is not
 * this process's to change stays as it is, and the reopening fails as
 * before and is tried again later.
 */
const giveCompanionsTheFileMode = (path: string) => {
  if (!writable(path)) return
  for (const companion of companionsOf(path))
    try {
      if (!writable(companion)) chmodSync(companion, statSync(path).mode & 0o666)
    } catch {
      // Absent (SQLite makes it), or another user's.
    }
}

const closedStore = (path: string) =>
  new StoreError({ reason: "Unavailable", detail: `the event store at ${path} is closed` })

/**
 * The file at `path` as `open` opens it (its first opening here, whose
 * failure is thrown), opened again as the module's comment says.
 */
export const makeReopening = <A>(path: string, open: () => OnFile<A>): Reopening<A> => {
  let onFile: OnFile<A> | undefined = open()
  /** Why the last reopening failed, while no connection is open. */
  let openFailure: StoreError | undefined
  /**
   * The current connection is read-only: it refused a write so, or the file
   * could not be written when it opened (so that the first write after the
   * permission returns goes to a new connection, instead of failing first).
   */
  let readOnly = opensReadOnly(path)
  let delayMs = reopenDelayFirstMs
  let nextReopeningAtMs = 0
  let closed = false
  /** Counts the openings, so that a refusal by an old connection, answered late, does not condemn a new one. */
  let opening = 0

  const reopenIfDue = (nowMs: number) => {
    if (closed || (!readOnly && onFile !== undefined) || nowMs < nextReopeningAtMs) return
    try {
      onFile?.close()
    } catch {
      // What the old connection owed is answered failed; the new one starts from the file.
    }
    onFile = undefined
    opening++
    giveCompanionsTheFileMode(path)
    try {
      onFile = open()
      openFailure = undefined
      readOnly = opensReadOnly(path)
    } catch (error) {
      openFailure = storeErrorFrom(error, `opening the event store at ${path} again`)
    }
    nextReopeningAtMs = nowMs + delayMs
    delayMs = Math.min(delayMs * 2, reopenDelayMaxMs)
  }

  const afterFailure = (usedOpening: number) => (error: unknown) =>
    Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
      Effect.sync(() => {
        if (usedOpening !== opening || !isReadOnlyFailure(error)) return
        readOnly = true
        // Now rather than at the next operation, so that the next write finds a new connection.
        reopenIfDue(nowMs)
      }),
    )

  return {
    use: <X, E>(access: Access, use: (opened: A) => Effect.Effect<X, E>) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs): Effect.Effect<X, E | StoreError> => {
        if (closed) return Effect.fail(closedStore(path))
        reopenIfDue(nowMs)
        if (onFile === undefined) return Effect.fail(openFailure ?? closedStore(path))
        return use(onFile.opened).pipe(
          Effect.tapError(afterFailure(opening)),
          Effect.tap(() =>
            Effect.sync(() => {
              if (access === "write") delayMs = reopenDelayFirstMs
            }),
          ),
        )
      }),
    current: () => onFile?.opened,
    close: () => {
      if (closed) return
      closed = true
      onFile?.close()
      onFile = undefined
    },
  }
}
