import { Effect, Layer } from "effect"
import { EventStore, type EventStoreShape } from "../EventStore.ts"
import { CommandLocks, StreamLocks } from "../locks.ts"
import { makeMemoryEventStore } from "../memory.ts"

/** Stream locks that hold no command back: each command as if it ran in a process of its own. */
class NoTurnsTaken extends StreamLocks {
  override withLock<A, E, R>(_streamId: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return effect
  }
}

/** A store whose reads let other fibers run, and how many appends it refused for a stale version. */
export interface RacingStore {
  /** The racing store, and `CommandLocks` that take no turns (a command inside may still provide its own). */
  readonly layer: Layer.Layer<EventStore>
  readonly lostRaces: () => number
}

/**
 * Wraps a store (the memory store unless given) so that every read lets the
 * other fibers run before it answers: commands sent at once then read the
 * same version and race to append, as requests in several processes would,
 * and the handler decides the losers again. The command handler's
 * per-stream lock (`CommandLocks`), which would make commands of one
 * process take turns instead, takes no turns under the layer: every
 * command stands for a request in a process of its own. A test of the
 * in-process turns provides `CommandLocks` inside.
 *
 *   const { layer, lostRaces } = racingStore()
 *   await Effect.runPromise(Effect.all(refunds.map(sendRefund), { concurrency: "unbounded" }).pipe(Effect.provide(layer)))
 *   expect(lostRaces()).toBeGreaterThan(0)
 */
export const racingStore = (store: EventStoreShape = makeMemoryEventStore()): RacingStore => {
  let lost = 0
  const countLost = () =>
    Effect.sync(() => {
      lost += 1
    })
  const racing: EventStoreShape = {
    ...store,
    readStream: (streamId, options) => store.readStream(streamId, options).pipe(Effect.tap(() => Effect.yieldNow)),
    append: (streamId, events, expected) =>
      store.append(streamId, events, expected).pipe(Effect.tapErrorTag("VersionConflict", countLost)),
    appendMany: (parts) => store.appendMany(parts).pipe(Effect.tapErrorTag("VersionConflict", countLost)),
  }
  const layer = Layer.merge(Layer.succeed(EventStore, racing), Layer.succeed(CommandLocks, new NoTurnsTaken()))
  return { layer, lostRaces: () => lost }
}
