/** Generated histories (tools/histories) in memory stores, for the replay's tests. */
import { EventStore, type EventStoreShape, logStart, makeMemoryEventStore } from "@mizan/eventsourcing"
import { type GeneratedHistory, type GenerateError, generateHistory } from "@mizan/histories"
import { Effect } from "effect"

export interface GeneratedStore {
  readonly store: EventStoreShape
  readonly history: GeneratedHistory
}

/** A memory store holding the history generated from `seed`, of about `events` events. */
export const generatedStore = (seed: number, events: number): Effect.Effect<GeneratedStore, GenerateError> =>
  Effect.gen(function* () {
    const store = makeMemoryEventStore()
    const history = yield* Effect.provideService(generateHistory({ seed, events }), EventStore, store)
    return { store, history }
  })

/** The whole log of the history generated from `seed`, in one read. */
export const generatedLog = (seed: number, events: number) =>
  Effect.flatMap(generatedStore(seed, events), ({ store }) => store.readAll({ after: logStart, maxCount: 1_000_000 }))
