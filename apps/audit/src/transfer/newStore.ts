/**
 * `import` may create its target store: a SQLite file that does not exist
 * yet or is empty (an empty database), a PostgreSQL schema that does not,
 * or a store's tables in a schema that is there without them (empty, or
 * another application's). One that is refused, or fails, takes back what
 * it made once closed: the file removed, or emptied again; the schema
 * dropped, or the store's tables alone, the schema left as it was. Left
 * behind, an empty or part-written store would audit clean. A store that
 * was there before is left as the import leaves it.
 */
import { existsSync, rmSync, statSync, truncateSync } from "node:fs"
import {
  dropPostgresSchema,
  dropPostgresStoreTables,
  postgresSchemaExists,
  postgresSchemaHoldsStore,
} from "@mizan/store-postgres"
import type { StoreSetting } from "@mizan/stores"
import { Effect } from "effect"

/** The files of a SQLite store: the database, and the log and journal beside it. */
const sqliteFileSuffixes = ["", "-wal", "-shm", "-journal"]

/** The size of the file at `path`: "missing" when there is none, undefined when it cannot be told (no permission). */
const sizeOf = (path: string): number | "missing" | undefined => {
  try {
    return statSync(path, { throwIfNoEntry: false })?.size ?? "missing"
  } catch {
    return undefined
  }
}

const removal = (path: string, suffixes: ReadonlyArray<string>) =>
  Effect.sync(() => {
    for (const suffix of suffixes) rmSync(`${path}${suffix}`, { force: true })
  })

/** What takes the store back, if the store is not there yet; undefined for one that is, or may be. */
const removalIfNew = (store: StoreSetting): Effect.Effect<Effect.Effect<void> | undefined> => {
  switch (store._tag) {
    case "Sqlite":
      return Effect.sync(() => {
        const size = sizeOf(store.path)
        if (size === "missing") return removal(store.path, sqliteFileSuffixes)
        // Not known: taken as a store there, never removed. An empty file is an empty database, which the
        // store's opening writes its tables into.
        if (size === undefined || size > 0) return undefined
        const sideFilesNew = sqliteFileSuffixes.filter(
          (suffix) => suffix !== "" && !existsSync(`${store.path}${suffix}`),
        )
        return Effect.andThen(
          removal(store.path, sideFilesNew),
          Effect.sync(() => truncateSync(store.path, 0)),
        )
      })
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
