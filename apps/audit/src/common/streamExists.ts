/**
 * Whether the store holds a stream: what a command asks before it reads
 * "nothing" as an answer, since a misspelt stream name holds nothing too.
 */

import { EventStore } from "@mizan/eventsourcing"
import { Effect } from "effect"

export const streamExists = Effect.fn("Audit.streamExists")(function* (streamId: string) {
  const store = yield* EventStore
  return (yield* store.readStream(streamId, { fromVersion: 1, maxCount: 1 })).length > 0
})
