/** Shared by the store's tests: a fresh database file per test, removed with the test's scope. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { makeSqliteEventStore, type SqliteEventStore, type SqliteStoreOptions } from "../../src/index.ts"

/** A path for a database file in a new temporary folder; the folder goes when the scope closes. */
export const tempDatabasePath: Effect.Effect<string, never, Scope.Scope> = Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "mizan-sqlite-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true })),
  ),
  (dir) => join(dir, "events.db"),
)

export interface FreshStore {
  readonly path: string
  readonly store: SqliteEventStore
  /** Closes `store` (committing what it queued) and opens the same file again. */
  readonly reopen: () => Effect.Effect<SqliteEventStore, unknown, Scope.Scope>
}

/** A store on a new file, in a scope of its own so that `reopen` can close it before the test's scope ends. */
export const openFreshStore = (options?: SqliteStoreOptions): Effect.Effect<FreshStore, unknown, Scope.Scope> =>
  Effect.gen(function* () {
    const path = yield* tempDatabasePath
    const firstScope = yield* Scope.make()
    yield* Effect.addFinalizer(() => Scope.close(firstScope, Exit.void))
    const store = yield* Scope.provide(firstScope)(makeSqliteEventStore(path, options))
    return {
      path,
      store,
      reopen: () => Effect.andThen(Scope.close(firstScope, Exit.void), makeSqliteEventStore(path, options)),
    }
  })
