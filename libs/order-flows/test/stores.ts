/**
 * The store a flow runs on, as the create tests need to see it: every
 * write recorded, or a store that appends in turn and fails after the
 * first part, as a crash would leave an order without its index.
 */
import { EventStore, type EventStoreShape, StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"

/** Provides `effect` with `change(store)` in place of the EventStore it runs on. */
const onChangedStore = <A, E, R>(effect: Effect.Effect<A, E, R>, change: (store: EventStoreShape) => EventStoreShape) =>
  Effect.flatMap(EventStore, (store) => Effect.provideService(effect, EventStore, change(store)))

/** Runs `effect` and answers what it answered, with its writes: the streams of each append or appendMany, in turn. */
export const withWritesRecorded = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const writes: Array<ReadonlyArray<string>> = []
    const answer = yield* onChangedStore(effect, (store) => ({
      ...store,
      append: (streamId, events, expected) => {
        writes.push([streamId])
        return store.append(streamId, events, expected)
      },
      appendMany: (parts) => {
        writes.push(parts.map((part) => part.streamId))
        return store.appendMany(parts)
      },
    }))
    return { answer, writes }
  })

/**
 * Runs `effect` on a store whose appendMany writes its first part and then
 * fails, as a store that appends in turn and crashes between the parts:
 * a create leaves its order without its index. Answers the failure.
 */
export const cutAfterTheFirstPart = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flip(
    onChangedStore(effect, (store) => ({
      ...store,
      appendMany: ([first]) =>
        Effect.andThen(
          store.append(first!.streamId, first!.events, first!.expected),
          Effect.fail(new StoreError({ reason: "Unavailable", detail: "cut after the first part" })),
        ),
    })),
  )
