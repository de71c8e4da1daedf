import { eventStoreContract } from "@mizan/eventsourcing/testing"
import { openFreshStore } from "./support/stores.ts"

// The default, "full-offloaded": acknowledged after the log's sync in the thread pool.
eventStoreContract("sqlite", openFreshStore(), { propertyRuns: 25, syncsAfterCommit: true })
// "full": SQLite syncs inside COMMIT, on the event loop.
eventStoreContract("sqlite (synchronous full)", openFreshStore({ synchronous: "full" }), { propertyRuns: 10 })
