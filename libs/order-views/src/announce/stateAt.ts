import { type Aggregate, EventStore, StoreError } from "@mizan/eventsourcing"
import { Effect, Result } from "effect"

/**
 * An aggregate's state as of one version of its stream: what a notification
 * shows, since it carries the order as it was at that status change, not as
 * it is when the notifier gets to it.
 */
export const stateAt = <Command, Event, State, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  streamVersion: number,
) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const records = yield* store.readStream(streamId, { maxCount: streamVersion })
    let state = aggregate.initialState
    for (const record of records) {
      const event = aggregate.codec.decode(record)
      if (Result.isFailure(event))
        return yield* Effect.fail(
          new StoreError({ reason: "Undecodable", detail: `${streamId}@${record.streamVersion}: ${event.failure}` }),
        )
      state = aggregate.evolve(state, event.success)
    }
    return state
  })
