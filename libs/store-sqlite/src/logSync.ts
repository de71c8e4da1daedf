/**
 * Durability after the commit, off the event loop (`synchronous:
 * "full-offloaded"`, README.md, Durability). SQLite commits at NORMAL (the
 * transaction's pages are written to the write-ahead log, in the operating
 * system's cache) and one `fdatasync` of the log, run in libuv's thread pool,
 * then puts on disk every commit written to the log before the sync started:
 * the same durability as FULL, without the event loop waiting for the disk.
 *
 * Syncs are coalesced: at most one runs at a time, and everyone who asks
 * while it runs is answered by the next one (which starts when it ends),
 * since the running one may have started before their commit.
 */
import { closeSync, fdatasync, fsyncSync, openSync } from "node:fs"
import { dirname } from "node:path"

export interface LogSync {
  /**
   * Calls `done` once everything written to the log before this call is on
   * disk, or with the error that stopped it. A failed sync fails every later
   * request too: after a failed `fdatasync` the kernel may have dropped the
   * pages it could not write, so nothing can be called durable any more.
   */
  readonly afterNextSync: (done: (error: Error | undefined) => void) => void
  /** Syncs what is written, answers every waiting request, and closes the log's descriptor. */
  readonly close: () => void
}

/** The file SQLite writes its write-ahead log to, beside the database. */
export const walPathOf = (databasePath: string) => `${databasePath}-wal`

/**
 * Syncs the folder once, as SQLite does at the first sync of a log it
 * created: until then a power loss may forget that the log file exists.
 */
const syncFolderOf = (path: string) => {
  const folder = openSync(dirname(path), "r")
  try {
    fsyncSync(folder)
  } finally {
    closeSync(folder)
  }
}

/**
 * Syncs of the log at `walPath` (which must exist: SQLite creates it at the
 * first read in write-ahead-log mode). The descriptor is read-only: Linux
 * syncs a file through any descriptor of it, and this one never writes. It
 * refers to the file SQLite keeps writing for as long as the store's
 * connection is open, since SQLite deletes the log only when the last
 * connection closes, and truncates it in place otherwise.
 */
export const threadPoolLogSync = (walPath: string): LogSync => {
  const fd = openSync(walPath, "r")
  syncFolderOf(walPath)
  let waiting: Array<(error: Error | undefined) => void> = []
  let syncing = false
  let closed = false
  let failure: Error | undefined

  const answer = (waiters: ReadonlyArray<(error: Error | undefined) => void>) => {
    for (const done of waiters) done(failure)
  }

  const start = () => {
    const waiters = waiting
    waiting = []
    syncing = true
    fdatasync(fd, (error) => {
      if (error !== null && failure === undefined) failure = error
      // Still `syncing` while answering: an answer may ask for the next sync, or close the store, and both must wait for this line.
      answer(waiters)
      syncing = false
      // The descriptor outlives close() while a sync still uses it, so that its number is never reused under it.
      if (closed) closeSync(fd)
      else if (waiting.length > 0) start()
    })
  }

  return {
    afterNextSync: (done) => {
      if (failure !== undefined || closed) {
        done(failure ?? new Error(`the write-ahead log ${walPath} is closed`))
        return
      }
      waiting.push(done)
      if (!syncing) start()
    },
    close: () => {
      if (closed) return
      closed = true
      try {
        fsyncSync(fd)
      } catch (error) {
        failure ??= error as Error
      }
      const waiters = waiting
      waiting = []
      answer(waiters)
      if (!syncing) closeSync(fd)
    },
  }
}
