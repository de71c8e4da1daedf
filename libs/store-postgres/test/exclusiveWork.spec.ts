import { exclusiveWorkContract } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { describe, it } from "vitest"
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
  it("never blocks the same work of a store in another schema", async () => {
    const url = postgresUrl()
    const a = postgresExclusiveWork(url, { schema: freshSchema(), pollIntervalMs: 20 })
    const b = postgresExclusiveWork(url, { schema: freshSchema(), pollIntervalMs: 20 })
    await Effect.runPromise(Effect.scoped(Effect.all([a.hold("notifier"), b.hold("notifier")], { concurrency: 2 })))
  })
})
