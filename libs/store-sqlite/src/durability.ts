/**
 * When a commit may be acknowledged, and what readers may see
 * (README.md, Durability). Under "full" and "normal" a commit is as durable
 * as it will be once `COMMIT` returns. Under "full-offloaded" it is durable
 * only after the log's next sync in the thread pool (logSync.ts): appends
 * are acknowledged then, and reads hand out nothing beyond the last durable
 * position, so that no follower (the notifier, a read model) acts on an
 * event that a power loss could still take back.
 */
import { StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import type { LogSync } from "./logSync.ts"

export interface Durability {
  /** After a commit that wrote up to `position`: calls `acknowledge` once it is durable, or with why it cannot be. */
  readonly afterCommit: (position: number, acknowledge: (failure: StoreError | undefined) => void) => void
  /** Completes once every event up to `position` (read from the file, so committed) is durable. */
  readonly durableThrough: (position: number) => Effect.Effect<void, StoreError>
  /** Completes once every write committed before it is durable (a checkpoint, a signed head, a key). */
  readonly afterWrite: Effect.Effect<void, StoreError>
  /** Makes what is committed durable and answers everyone waiting. */
  readonly close: () => void
  /**
   * Why nothing more may be committed, once a sync failed: after a failed
   * `fdatasync` the kernel may have dropped pages it could not write, so a
   * later commit, answered "failed", could still be in the file after a
   * restart, and a caller who tried again would find its append taken twice.
   */
  readonly refusal: () => StoreError | undefined
}

/** "full" and "normal": SQLite's own `COMMIT` is all the durability there is. */
export const durableAtCommit: Durability = {
  afterCommit: (_position, acknowledge) => acknowledge(undefined),
  durableThrough: () => Effect.void,
  afterWrite: Effect.void,
  close: () => {},
  refusal: () => undefined,
}

/** "full-offloaded": a commit becomes durable when a sync of the log that started after it ends. */
export const durableAfterLogSync = (logSync: LogSync, path: string): Durability => {
  /** Every event at or below it is on disk. Starts at 0: what the file held when opened may be a killed process's unsynced commits. */
  let durablePosition = 0
  /** The first failed sync, kept: from then on nothing is committed (`refusal`). */
  let failed: StoreError | undefined
  const failureOf = (error: Error) => {
    failed ??= new StoreError({
      reason: "Unavailable",
      detail: `syncing the write-ahead log of ${path} failed, so nothing written since the last sync can be called durable: reopen the store`,
      cause: error,
    })
    return failed
  }
  const waitForSync = (position: number) =>
    Effect.callback<void, StoreError>((resume) =>
      logSync.afterNextSync((error) => {
        if (error !== undefined) return resume(Effect.fail(failureOf(error)))
        durablePosition = Math.max(durablePosition, position)
        resume(Effect.void)
      }),
    )
  return {
    afterCommit: (position, acknowledge) => {
      if (position <= durablePosition) return acknowledge(undefined)
      logSync.afterNextSync((error) => {
        if (error !== undefined) return acknowledge(failureOf(error))
        // Acknowledge first, then move the position readers may see: nobody reads an event before its append is answered.
        acknowledge(undefined)
        durablePosition = Math.max(durablePosition, position)
      })
    },
    durableThrough: (position) => (position <= durablePosition ? Effect.void : waitForSync(position)),
    afterWrite: waitForSync(0),
    close: logSync.close,
    refusal: () => failed,
  }
}
