import { subjectKeysContract } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { freshSchema, openStore } from "./support.ts"

subjectKeysContract(
  "postgres",
  Effect.map(
    Effect.suspend(() => openStore(freshSchema())),
    (store) => store.subjectKeys,
  ),
)
