/**
 * Syncs of the write-ahead log, off the event loop (README.md, Durability).
 * One `fdatasync` of the log, run in libuv's thread pool, puts on disk every
 * commit written to it before the sync started, by this process or any
 * other: the log is one file, and a sync of a file covers every write to it,
 * whoever made it. Under "full-offloaded" SQLite commits at NORMAL (the
 * transaction's pages are written to the log, in the operating system's
 * cache) and these syncs make the commits durable: FULL's durability
 * without the event loop waiting for the disk. At every level, a reader
 * syncs the log this way before handing out an event it does not know is
 * durable (durability.ts).
 *
 * Syncs are numbered as they start, one at a time: sync n+1 starts after
 * sync n ended, and covers everything written before it started. A caller
 * who notes `startedSyncs() + 1` after a commit waits for exactly the first
 * sync that covers it, which may already be running when the caller asks
 * again (a reader of that commit), instead of queueing on the one after.
 */
import { closeSync, fdatasync, fsyncSync, openSync } from "node:fs"
import { dirname } from "node:path"

export interface LogSync {
  /** How many syncs have started. Sync number `startedSyncs() + 1` starts after this call, so it covers everything written before. */
  readonly startedSyncs: () => number
  /**
   * Calls `done` once sync number `sync` (at most `startedSyncs() + 1`) has
   * ended, starting it if it is the next one and none runs; or with the
   * error that stopped it. A failed sync fails every later request too:
   * after a failed `fdatasync` the kernel may have dropped the pages it
   * could not write, so nothing can be called durable any more.
   */
  readonly afterSync: (sync: number, done: (error: Error | undefined) => void) => void
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

type Waiter = (error: Error | undefined) => void

/** Node's `fdatasync`: syncs the file's data (and its size) to disk in the thread pool. */
export type Datasync = (fd: number, done: (error: Error | null) => void) => void

/**
 * Syncs of the log at `walPath` (which must exist: SQLite creates it at the
 * first read in write-ahead-log mode). The descriptor is read-only: Linux
 * syncs a file through any descriptor of it, and this one never writes. It
 * refers to the file SQLite keeps writing for as long as the store's
 * connection is open, since SQLite deletes the log only when the last
 * connection closes, and truncates it in place otherwise. `datasync` is
 * Node's `fdatasync`; the tests pass one that holds a sync while it runs.
 */
export const threadPoolLogSync = (walPath: string, datasync: Datasync = fdatasync): LogSync => {
  const fd = openSync(walPath, "r")
  syncFolderOf(walPath)
  let started = 0
  let ended = 0
  /** True from a sync's start until its waiters are answered. */
  let running = false
  let forRunning: Array<Waiter> = []
  let forNext: Array<Waiter> = []
  let closed = false
  let failure: Error | undefined

  const answer = (waiters: ReadonlyArray<Waiter>) => {
    for (const done of waiters) done(failure)
  }

  const start = () => {
    started++
    running = true
    forRunning = forNext
    forNext = []
    datasync(fd, (error) => {
      if (error !== null && failure === undefined) failure = error
      ended = started
      const waiters = forRunning
      forRunning = []
      // Still `running` while answering: an answer may ask for the next sync, or close the store, and both must wait for this line.
      answer(waiters)
      running = false
      // The descriptor outlives close() while a sync still uses it, so that its number is never reused under it.
      if (closed) closeSync(fd)
      else if (forNext.length > 0) start()
    })
  }

  return {
    startedSyncs: () => started,
    afterSync: (sync, done) => {
      if (failure !== undefined || closed) {
        done(failure ?? new Error(`the write-ahead log ${walPath} is closed`))
        return
      }
      if (sync <= ended) done(undefined)
      else if (sync <= started) forRunning.push(done)
      else {
        forNext.push(done)
        if (!running) start()
      }
    },
    close: () => {
      if (closed) return
      closed = true
      try {
        fsyncSync(fd)
      } catch (error) {
        failure ??= error as Error
      }
      // The running sync answers its own waiters when it ends; the sync just made covers the next one's.
      const waiters = forNext
      forNext = []
      answer(waiters)
      if (!running) closeSync(fd)
    },
  }
}
