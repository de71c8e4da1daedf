/**
 * Exclusive work among the processes on one PostgreSQL store: the holder
 * keeps a session advisory lock, on a connection of its own, for as long as
 * it does the work. Another process's `pg_try_advisory_lock` finds it taken
 * and tries again after `pollIntervalMs`. PostgreSQL frees the lock when the
 * holder's session ends, which a process that dies (or loses its connection)
 * does at once.
 */
import { ExclusiveWork } from "@mizan/eventsourcing"
import { Effect, Layer } from "effect"
import pg from "pg"
import { storeErrorFrom } from "./errors.ts"

/** How often a standby looks whether the holder is gone. */
export const exclusiveWorkPollIntervalMs = 1_000

export interface PostgresExclusiveWorkOptions {
  /** The store's schema: the lock is per schema, so that stores in one database do not block each other. */
  readonly schema?: string
  readonly pollIntervalMs?: number
}

export const postgresExclusiveWork = (connectionString: string, options: PostgresExclusiveWorkOptions = {}) =>
  ExclusiveWork.of({
    hold: (name) => {
      const key = `mizan:${options.schema ?? "mizan"}:${name}`
      const pollIntervalMs = options.pollIntervalMs ?? exclusiveWorkPollIntervalMs
      const connect = Effect.tryPromise({
        try: async () => {
          const client = new pg.Client({ connectionString, application_name: `mizan ${name}` })
          // A dropped connection has released the lock; the pool of the store sees the same database.
          client.on("error", () => undefined)
          await client.connect()
          return client
        },
        catch: storeErrorFrom(`connecting to hold ${name}`),
      })
      const tryLock = (client: pg.Client) =>
        Effect.tryPromise({
          try: async () =>
            (
              await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS held", [
                key,
              ])
            ).rows[0]?.held === true,
          catch: storeErrorFrom(`locking ${name}`),
        })
      return Effect.acquireRelease(connect, (client) => Effect.promise(() => client.end().catch(() => undefined))).pipe(
        Effect.flatMap(
          Effect.fnUntraced(function* (client) {
            while (!(yield* tryLock(client))) yield* Effect.sleep(pollIntervalMs)
          }),
        ),
      )
    },
  })

export const layerPostgresExclusiveWork = (connectionString: string, options?: PostgresExclusiveWorkOptions) =>
  Layer.succeed(ExclusiveWork, postgresExclusiveWork(connectionString, options))
