import { Effect, Layer } from "effect"
import { EventStore, type EventStoreShape } from "../EventStore.ts"
import { makeMemoryEventStore } from "../memory.ts"

/** A store whose reads let other fibers run, and how many appends it refused for a stale version. */
export interface RacingStore {
  readonly layer: Layer.Layer<EventStore>
  readonly lostRaces: () => number
}

/**
 * Wraps a store (the memory store unless given) so that every read lets the
 * other fibers run before it answers: commands sent at once then read the
 * same version and race to append, as requests in several processes would,
 * and the handler decides the losers again. In one process the command
 * handler also takes a per-stream lock (`CommandLocks`); give each request
 * its own (`Effect.provideService(CommandLocks, new StreamLocks())`) to
 * stand for separate processes.
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
  return { layer: Layer.succeed(EventStore, racing), lostRaces: () => lost }
}
