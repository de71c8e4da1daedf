/** Generated histories (tools/histories) in memory stores, for the replay's tests. */
import { type EventStoreShape, makeMemoryEventStore } from "@mizan/eventsourcing"
import { type GeneratedHistory, generateHistory } from "@mizan/histories"
import { withMemoryStore } from "./stores.ts"

export interface GeneratedStore {
  readonly store: EventStoreShape
  readonly history: GeneratedHistory
}

export const generatedStore = async (seed: number, events: number): Promise<GeneratedStore> => {
  const store = makeMemoryEventStore()
  const history = await withMemoryStore(generateHistory({ seed, events }), store)
  return { store, history }
}
