/**
 * Work on one connection of the pool between BEGIN and COMMIT, for the
 * writes that must land all or none (an appendMany). A single append needs
 * none of this: it is one statement, so one implicit transaction.
 */
import { Effect, Exit } from "effect"
import type pg from "pg"
import { storeErrorFrom } from "./errors.ts"

const run = (client: pg.PoolClient, action: string, command: string) =>
  Effect.tryPromise({ try: () => client.query(command), catch: storeErrorFrom(`${action}: ${command}`) })

/**
 * Ends the transaction's connection: back to the pool after a COMMIT; after
 * anything else, once ROLLBACK has run (queued behind a statement still in
 * flight, when the work was interrupted), or destroyed when even that fails.
 */
const finish = (client: pg.PoolClient, committed: boolean) =>
  committed
    ? Effect.sync(() => client.release())
    : Effect.promise(() =>
        client.query("ROLLBACK").then(
          () => client.release(),
          (cause: unknown) => client.release(cause instanceof Error ? cause : true),
        ),
      )

/**
 * Runs `work` in one transaction: COMMIT when it succeeds, ROLLBACK when it
 * fails or is interrupted. `work` must use only `client`: a second
 * connection taken from the pool inside it could wait for ever on a pool
 * that transactions like this one hold whole.
 */
export const inTransaction = <A, E>(
  pool: pg.Pool,
  action: string,
  work: (client: pg.PoolClient) => Effect.Effect<A, E>,
) =>
  Effect.acquireUseRelease(
    Effect.tryPromise({ try: () => pool.connect(), catch: storeErrorFrom(`${action}: connecting`) }),
    (client) =>
      Effect.gen(function* () {
        yield* run(client, action, "BEGIN")
        const done = yield* work(client)
        yield* run(client, action, "COMMIT")
        return done
      }),
    (client, exit) => finish(client, Exit.isSuccess(exit)),
  )
