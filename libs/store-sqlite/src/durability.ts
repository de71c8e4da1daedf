/**
 * When a commit may be acknowledged, and what readers may see (README.md,
 * Durability). Under "full" SQLite's `COMMIT` syncs the log; under "normal"
 * it does not and the append is acknowledged anyway (SQLite's NORMAL);
 * under "full-offloaded" the append is acknowledged after the log's next
 * sync in the thread pool (logSync.ts).
 *
 * A read hands out nothing past the position this store knows durable (or,
 * under "normal", known to be its own acknowledged appends), and a read
 * reaching past it first waits for a sync of the log that started after the
 * rows were committed. Several processes may share one file at different
 * levels (the notifier and the gateway do), and rows another process
 * committed at NORMAL may not be on disk yet; one sync by any process puts
 * them there, so no follower (the notifier, a read model) acts on another
 * process's event that a power loss could still take back, whatever level
 * either process chose.
 */
import { StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import type { Synchronous } from "./connection.ts"
import type { LogSync } from "./logSync.ts"

/** Answers an append: `undefined` once it may be acknowledged, or why it cannot be. */
type Acknowledge = (failure: StoreError | undefined) => void

/** The global positions of the first and last events a transaction wrote (0 and 0 when it wrote none). */
export interface WrittenPositions {
  readonly first: number
  readonly last: number
}

export interface Durability {
  /** After a commit that wrote `written`: calls `acknowledge` once the level allows, or with why it cannot be. */
  readonly afterCommit: (written: WrittenPositions, acknowledge: Acknowledge) => void
  /** Completes once every event up to `position` (read from the file just now, so committed) is durable. */
  readonly durableThrough: (position: number) => Effect.Effect<void, StoreError>
  /** Completes once every write committed before it is as durable as the level promises (a checkpoint, a signed head, a key). */
  readonly afterWrite: Effect.Effect<void, StoreError>
  /**
   * Completes once every write committed before it is on disk, whatever the
   * level: what another store's acknowledgement relies on (a key table that
   * holds the data keys of events kept elsewhere).
   */
  readonly onDisk: Effect.Effect<void, StoreError>
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

/** Positions committed before sync number `sync` started, not yet known durable; with the appends it will acknowledge. */
interface Pending {
  position: number
  readonly sync: number
  readonly acknowledgements: Array<Acknowledge>
}

/**
 * The durability of a store at `synchronous` whose log `logSync` syncs;
 * `lastPosition` reads the last position committed to the file, so that
 * one sync a reader asks for covers everything there (a catching-up reader
 * waits for one sync, not one per page).
 */
export const makeDurability = (
  synchronous: Synchronous,
  logSync: LogSync,
  path: string,
  lastPosition: () => number,
): Durability => {
  /** Every event at or below it is on disk. Starts at 0: what the file held when opened may be a killed process's unsynced commits. */
  let durablePosition = 0
  /**
   * Under "normal": every event at or below it is durable or one of this
   * store's own appends, acknowledged at commit as NORMAL promises. It moves
   * only over a commit that follows it directly, so never over another
   * process's commit, which only a sync hands out.
   */
  let ownPosition = 0
  const readablePosition = () => Math.max(durablePosition, ownPosition)
  /** Oldest first, positions and syncs both rising; at most two, since one sync runs at a time: the running one's and the next one's. */
  let pending: Array<Pending> = []
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

  /** The entry's sync ended: its appends are acknowledged first, and only then may readers see past them. */
  const settle = (entry: Pending) => (error: Error | undefined) => {
    const failure = error === undefined ? undefined : failureOf(error)
    // Gone before the acknowledgements run: a read they set off meanwhile waits for the next sync, not for this one.
    pending = pending.filter((other) => other !== entry)
    for (const acknowledge of entry.acknowledgements) acknowledge(failure)
    if (failure === undefined) durablePosition = Math.max(durablePosition, entry.position)
  }

  /**
   * The pending entry of the first sync that covers `position`, which is
   * committed by now: the running sync's if it started after `position`
   * was noted, else the next one's (noting `position` there). `acknowledge`
   * joins the entry's appends.
   */
  const cover = (position: number, acknowledge?: Acknowledge): Pending => {
    const next = logSync.startedSyncs() + 1
    const joined = pending.find((entry) => entry.position >= position || entry.sync === next)
    if (joined !== undefined) {
      joined.position = Math.max(joined.position, position)
      if (acknowledge !== undefined) joined.acknowledgements.push(acknowledge)
      return joined
    }
    const added: Pending = { position, sync: next, acknowledgements: acknowledge === undefined ? [] : [acknowledge] }
    pending.push(added)
    // Asked before any reader of these positions asks, so it is answered first (a sync answers in order).
    logSync.afterSync(next, settle(added))
    return added
  }

  const afterSync = (sync: number) =>
    Effect.callback<void, StoreError>((resume) =>
      logSync.afterSync(sync, (error) => resume(error === undefined ? Effect.void : Effect.fail(failureOf(error)))),
    )
  /** After a sync of the log that starts after this is asked: it covers every commit before. */
  const afterNextSync = Effect.suspend(() => afterSync(logSync.startedSyncs() + 1))

  return {
    afterCommit: ({ first, last }, acknowledge) => {
      if (synchronous === "full-offloaded") {
        if (last <= durablePosition) acknowledge(undefined)
        else cover(last, acknowledge)
        return
      }
      acknowledge(undefined)
      // "full": SQLite synced the log inside COMMIT, and with it every commit written to the log before this one.
      if (synchronous === "full") durablePosition = Math.max(durablePosition, last)
      // "normal": the store's own, readable at once unless another process's commit lies below it.
      else if (first === readablePosition() + 1) ownPosition = last
    },
    durableThrough: (position) =>
      position <= readablePosition()
        ? Effect.void
        : Effect.suspend(() => {
            // Rows past what any pending sync covers: the next sync covers them, and everything else in the file too.
            const entry =
              pending.find((other) => other.position >= position) ?? cover(Math.max(position, lastPosition()))
            return afterSync(entry.sync)
          }),
    afterWrite: synchronous === "full-offloaded" ? afterNextSync : Effect.void,
    // "full" synced the log inside COMMIT; "normal" did not, nor will any append that follows.
    onDisk: synchronous === "full" ? Effect.void : afterNextSync,
    close: logSync.close,
    refusal: () => failed,
  }
}
