import { eventStoreContract } from "@mizan/eventsourcing/testing"
import { openFreshStore } from "./support/stores.ts"

eventStoreContract("sqlite", openFreshStore(), { propertyRuns: 25 })
