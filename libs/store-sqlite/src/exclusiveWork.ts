/**
 * Exclusive work among the processes on one SQLite store: the holder keeps
 * an exclusive lock on a small file beside the store (`<store>.<name>.lock`),
 * a transaction it never ends. Another process's attempt finds the file
 * locked and tries again after `pollIntervalMs`. The operating system frees
 * the lock when the holder's process ends, however it ends.
 */
import { DatabaseSync } from "node:sqlite"
import { ExclusiveWork, StoreError } from "@mizan/eventsourcing"
import { Effect, Layer } from "effect"

/** How often a standby looks whether the holder is gone. */
export const exclusiveWorkPollIntervalMs = 1_000

const isBusy = (error: unknown): boolean => /database is locked|SQLITE_BUSY/i.test(String((error as Error).message))

/** Takes the lock on `lockPath` if it is free; answers the connection holding it, or undefined. */
const tryLock = (lockPath: string): DatabaseSync | undefined => {
  const db = new DatabaseSync(lockPath, { timeout: 0 })
  try {
    db.exec("BEGIN EXCLUSIVE")
    return db
  } catch (error) {
    db.close()
    if (isBusy(error)) return undefined
    throw error
  }
}

export const sqliteExclusiveWork = (storePath: string, pollIntervalMs = exclusiveWorkPollIntervalMs) =>
  ExclusiveWork.of({
    hold: (name) => {
      const lockPath = `${storePath}.${name}.lock`
      const attempt = Effect.try({
        try: () => tryLock(lockPath),
        catch: (cause) =>
          new StoreError({ reason: "Unavailable", detail: `locking ${lockPath}: ${String(cause)}`, cause }),
      })
      const acquire = Effect.gen(function* () {
        while (true) {
          const held = yield* attempt
          if (held !== undefined) return held
          yield* Effect.sleep(pollIntervalMs)
        }
      })
      return Effect.acquireRelease(acquire, (db) =>
        Effect.sync(() => {
          db.exec("ROLLBACK")
          db.close()
        }),
      ).pipe(Effect.asVoid)
    },
  })

export const layerSqliteExclusiveWork = (storePath: string, pollIntervalMs?: number) =>
  Layer.succeed(ExclusiveWork, sqliteExclusiveWork(storePath, pollIntervalMs))
