import { Effect } from "effect"
import { makeMemoryEventStore } from "../src/index.ts"
import { eventStoreContract } from "../src/testing/index.ts"

eventStoreContract(
  "memory",
  Effect.sync(() => ({ store: makeMemoryEventStore() })),
  { volatile: true },
)
