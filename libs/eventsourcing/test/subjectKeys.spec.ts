import { Effect } from "effect"
import { makeMemorySubjectKeys } from "../src/index.ts"
import { subjectKeysContract } from "../src/testing/index.ts"

subjectKeysContract("memory", Effect.sync(makeMemorySubjectKeys))
