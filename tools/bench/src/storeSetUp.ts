/**
 * What the store benchmarks (sqlite.ts, sealing.ts, sealingGateway.ts,
 * notifier.ts, postgres.ts) set up alike: a SQLite file in a temporary
 * folder of its own, a store held open in a scope across a workload's runs,
 * and the 64 concurrent writers every SQLite writers' line runs.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"

/** A SQLite file's path in a temporary folder of its own. */
export interface TempFile {
  readonly dir: string
  readonly path: string
}

/** A new temporary folder named after `prefix`, and the path of the file `events.db` in it (not created). */
export const tempFile = (prefix = "mizan-bench-"): TempFile => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, path: join(dir, "events.db") }
}

/** Removes the file's folder, with whatever the store wrote beside it (its -wal and -shm files). */
export const removeFile = (file: { readonly dir: string }) => rmSync(file.dir, { recursive: true, force: true })

/**
 * `make` run in a scope of its own, which stays open until `closeScope`: a
 * store (and the connection it owns) made in one workload's setup and used by
 * its timed runs, each a promise of its own.
 */
export const openScoped = async <A, E>(make: Effect.Effect<A, E, Scope.Scope>) => {
  const scope = await Effect.runPromise(Scope.make())
  const value = await Effect.runPromise(Scope.provide(scope)(make))
  return { scope, value }
}

/** Closes a scope `openScoped` made, and with it what was made in it. */
export const closeScope = (scope: Scope.Closeable) => Effect.runPromise(Scope.close(scope, Exit.void))

/** How many writers append at once in the writers' lines: the command handlers of a busy gateway. */
export const writersConcurrent = 64

/** The writers' numbers, 0 to 63. */
export const writers = Array.from({ length: writersConcurrent }, (_, w) => w)

/**
 * The 64 writers at once, each making `appendsPerWriter` appends one after
 * the other, as a command handler waits for each: writer `w`'s `i`th is
 * `append(w, i)`.
 */
export const writersAppending = (
  appendsPerWriter: number,
  append: (w: number, i: number) => Effect.Effect<unknown, unknown>,
) =>
  Effect.runPromise(
    Effect.forEach(
      writers,
      (w) =>
        Effect.forEach(
          Array.from({ length: appendsPerWriter }, (_, i) => i),
          (i) => append(w, i),
          { discard: true },
        ),
      { concurrency: "unbounded", discard: true },
    ),
  )
