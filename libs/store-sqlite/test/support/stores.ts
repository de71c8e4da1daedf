/** Shared by the store's tests: a fresh database file per test, removed with the test's scope. */
import { fdatasync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type DurabilityGate, heldDurability } from "@mizan/eventsourcing/testing"
import { Effect, Exit, Scope } from "effect"
import type { SqliteEventStore, SqliteStoreOptions } from "../../src/index.ts"
import { type Datasync, type LogSync, threadPoolLogSync } from "../../src/logSync.ts"
import { openSqliteEventStore } from "../../src/store.ts"

/** A path for a database file in a new temporary folder; the folder goes when the scope closes. */
export const tempDatabasePath: Effect.Effect<string, never, Scope.Scope> = Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "mizan-sqlite-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true })),
  ),
  (dir) => join(dir, "events.db"),
)

/**
 * The thread pool's syncs of the log, with a gate in front: while it is
 * held, requests for a sync wait at it, and on release they go on to the
 * real syncs. Shows what waits for a commit to become durable.
 */
export const gatedLogSyncs = () => {
  const gate = heldDurability()
  const logSyncOf = (walPath: string): LogSync => {
    const inner = threadPoolLogSync(walPath)
    return {
      startedSyncs: inner.startedSyncs,
      afterSync: (sync, done) => gate.pass(() => inner.afterSync(sync, done)),
      close: () => {
        gate.releaseAll()
        inner.close()
      },
    }
  }
  return { hold: gate.hold, logSyncOf }
}

/**
 * Node's `fdatasync` with its first `heldCount` calls held while they run:
 * each starts only when `releaseNext` lets it (in call order); later calls
 * go straight through. Shows which sync a waiter is answered by.
 */
export const heldDatasyncs = (heldCount: number) => {
  let calls = 0
  const held: Array<() => void> = []
  const callWaiters: Array<() => void> = []
  const datasync: Datasync = (fd, done) => {
    calls++
    for (const wake of callWaiters.splice(0)) wake()
    if (calls > heldCount) return fdatasync(fd, done)
    held.push(() => fdatasync(fd, done))
  }
  const started = (count: number): Effect.Effect<void> =>
    Effect.callback((resume) => {
      const check = () => (calls >= count ? resume(Effect.void) : callWaiters.push(check))
      check()
    })
  return {
    datasync,
    /** How many syncs have started (held or not). */
    calls: () => calls,
    /** Completes once `count` syncs have started. */
    started,
    /** Lets the oldest held sync run. */
    releaseNext: Effect.sync(() => held.shift()?.()),
  }
}

export interface FreshStore {
  readonly path: string
  readonly store: SqliteEventStore
  /** Closes `store` (committing what it queued) and opens the same file again. */
  readonly reopen: () => Effect.Effect<SqliteEventStore, unknown, Scope.Scope>
  /** Holds back the syncs of the log (under "full-offloaded", the default) until released. */
  readonly holdDurability: () => Effect.Effect<DurabilityGate>
}

/** A store on a new file, in a scope of its own so that `reopen` can close it before the test's scope ends. */
export const openFreshStore = (options: SqliteStoreOptions = {}): Effect.Effect<FreshStore, unknown, Scope.Scope> =>
  Effect.gen(function* () {
    const path = yield* tempDatabasePath
    const gate = gatedLogSyncs()
    const open = () => openSqliteEventStore(path, options, gate.logSyncOf)
    const firstScope = yield* Scope.make()
    yield* Effect.addFinalizer(() => Scope.close(firstScope, Exit.void))
    const store = yield* Scope.provide(firstScope)(open())
    return {
      path,
      store,
      reopen: () => Effect.andThen(Scope.close(firstScope, Exit.void), open()),
      holdDurability: () => Effect.sync(gate.hold),
    }
  })
