import { Context, Effect, Semaphore } from "effect"

/**
 * One lock per stream id, held while a command is decided and appended.
 * Within one process, commands on the same stream then take turns instead
 * of racing and retrying: 64 concurrent refunds on one order all get an
 * answer. Across processes the store's expected-version check is still the
 * lock (docs/architecture.md#consistency), and the handler's bounded retry handles it.
 * A stream's lock is dropped when no command holds or waits for it, so the
 * table stays as small as the number of streams in use.
 */
export class StreamLocks {
  private readonly locks = new Map<string, { readonly semaphore: Semaphore.Semaphore; users: number }>()

  withLock<A, E, R>(streamId: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.acquireUseRelease(
      Effect.sync(() => {
        const entry = this.locks.get(streamId) ?? { semaphore: Semaphore.makeUnsafe(1), users: 0 }
        entry.users += 1
        this.locks.set(streamId, entry)
        return entry
      }),
      (entry) => entry.semaphore.withPermits(1)(effect),
      (entry) =>
        Effect.sync(() => {
          entry.users -= 1
          if (entry.users === 0) this.locks.delete(streamId)
        }),
    )
  }

  /** Streams with a command holding or waiting for their lock. */
  get size(): number {
    return this.locks.size
  }
}

/** The process's stream locks; a test or an embedding app may provide its own. */
export const CommandLocks = Context.Reference<StreamLocks>("@mizan/eventsourcing/CommandLocks", {
  defaultValue: () => new StreamLocks(),
})
