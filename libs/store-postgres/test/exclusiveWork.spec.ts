import { describe, it } from "@effect/vitest"
import { exclusiveWorkContract } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { postgresExclusiveWork } from "../src/index.ts"
import { freshSchema, postgresUrl } from "./support.ts"

exclusiveWorkContract("PostgreSQL advisory locks", () => {
  const schema = freshSchema()
  return [
    postgresExclusiveWork(postgresUrl(), { schema, pollIntervalMs: 20 }),
    postgresExclusiveWork(postgresUrl(), { schema, pollIntervalMs: 20 }),
  ]
})

describe("exclusive work on PostgreSQL, per schema", () => {
  it.effect("never blocks the same work of a store in another schema", () =>
    Effect.gen(function* () {
      const url = postgresUrl()
      const a = postgresExclusiveWork(url, { schema: freshSchema(), pollIntervalMs: 20 })
      const b = postgresExclusiveWork(url, { schema: freshSchema(), pollIntervalMs: 20 })
      // A hold that waited would poll on the TestClock, which never moves here: the test would time out.
      yield* Effect.all([a.hold("notifier"), b.hold("notifier")], { concurrency: 2 })
    }),
  )
})
