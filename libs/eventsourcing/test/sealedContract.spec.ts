/**
 * The sealed store is an EventStore like any other: the port's contract,
 * run through it on the memory store with a plan that seals the contract's
 * own events (their `text` is the subject's personal field), so the
 * suite's appends and reads go through sealing and opening.
 */
import { Effect } from "effect"
import {
  keyRingOfMasterKeys,
  makeMemoryEventStore,
  makeMemorySubjectKeys,
  makeSealerOn,
  newMasterKey,
  type SealingPlan,
  sealedEventStore,
} from "../src/index.ts"
import { eventStoreContract } from "../src/testing/index.ts"

const sealsText = [{ kind: "writer", identifiedBy: "text", fields: ["text"] }]
// `Created` is not in the plan: its appends take the wrapper's path for events with nothing to seal.
const plan: SealingPlan = { events: { Happened: sealsText, Paid: sealsText }, streams: [] }

eventStoreContract(
  "sealed memory",
  Effect.map(makeSealerOn(plan, makeMemorySubjectKeys(), keyRingOfMasterKeys([newMasterKey()])), (sealer) => ({
    store: sealedEventStore(makeMemoryEventStore(), sealer),
  })),
  { volatile: true, chained: false },
)
