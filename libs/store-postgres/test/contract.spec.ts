import { eventStoreContract } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { freshSchema, openStore } from "./support.ts"

eventStoreContract(
  "postgres",
  Effect.gen(function* () {
    const schema = freshSchema()
    const store = yield* openStore(schema)
    // A restarted process: a new pool on the same database and schema.
    return { store, reopen: () => openStore(schema) }
  }),
)
