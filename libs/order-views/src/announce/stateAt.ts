import { type Aggregate, loadAggregate } from "@mizan/eventsourcing"
import { Effect } from "effect"

/**
 * An aggregate's state as of one version of its stream: what a notification
 * shows, since it carries the order as it was at that status change, not as
 * it is when the notifier gets to it.
 */
export const stateAt = <Command, Event, State, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  streamVersion: number,
) => Effect.map(loadAggregate(aggregate, streamId, { upToVersion: streamVersion }), ({ state }) => state)
