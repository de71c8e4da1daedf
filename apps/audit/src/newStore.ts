/**
 * `import` may create its target store: a SQLite file that does not exist
 * yet, a PostgreSQL schema that does not, or a store's tables in a schema
 * that is there without them (empty, or another application's). One that
 * is refused, or fails, takes back what it made once closed: the file
 * removed; the schema dropped, or the store's tables alone, the schema left
 * as it was. Left behind, an empty or part-written store would audit
 * clean. A store that was there before is left as the import leaves it.
 */
import { existsSync, rmSync } from "node:fs"
import {
  dropPostgresSchema,
  dropPostgresStoreTables,
  postgresSchemaExists,
  postgresSchemaHoldsStore,
} from "@mizan/store-postgres"
import type { StoreSetting } from "@mizan/stores"
import { Effect } from "effect"

/** What takes the store back, if the store is not there yet; undefined for one that is, or may be. */
const removalIfNew = (store: StoreSetting): Effect.Effect<Effect.Effect<void> | undefined> => {
  switch (store._tag) {
    case "Sqlite":
      return Effect.sync(() =>
        existsSync(store.path)
          ? undefined
          : Effect.sync(() => {
              for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${store.path}${suffix}`, { force: true })
            }),
      )
    case "Postgres":
      return Effect.all([
        postgresSchemaExists(store.url, store.schema),
        postgresSchemaHoldsStore(store.url, store.schema),
      ]).pipe(
        // Not known (no server answers): taken as a store there, never dropped; the import fails to open it anyway.
        Effect.orElseSucceed(() => [true, true] as const),
        // A drop that fails leaves the schema or the tables, as a crash would: the import's own refusal is what to say.
        Effect.map(([schemaThere, storeThere]) =>
          storeThere
            ? undefined
            : schemaThere
              ? Effect.ignore(dropPostgresStoreTables(store.url, store.schema))
              : Effect.ignore(dropPostgresSchema(store.url, store.schema)),
        ),
      )
    case "KurrentDb":
      // Its streams are the server's, not a file or a schema this import made.
      return Effect.succeed(undefined)
  }
}

/** `program`, which opens `store` and may create it, with the store taken back when it fails and was not there before. */
export const removedIfNewAndFailed = <A, E>(store: StoreSetting, program: Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.flatMap(removalIfNew(store), (remove) =>
    remove === undefined ? program : Effect.onError(program, () => remove),
  )
