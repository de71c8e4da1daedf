import { Deferred, Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { postgresExclusiveWork } from "../src/index.ts"
import { freshSchema, postgresUrl } from "./support.ts"

describe("exclusive work on one PostgreSQL store", () => {
  it("lets one holder at a time do it: a second waits until the first lets go, then takes over", async () => {
    const schema = freshSchema()
    const first = postgresExclusiveWork(postgresUrl(), { schema, pollIntervalMs: 20 })
    const second = postgresExclusiveWork(postgresUrl(), { schema, pollIntervalMs: 20 })
    const order: Array<string> = []
    const program = Effect.gen(function* () {
      const release = yield* Deferred.make<void>()
      const holder = yield* Effect.forkChild(
        Effect.scoped(
          Effect.gen(function* () {
            yield* first.hold("notifier")
            order.push("first holds")
            yield* Deferred.await(release)
            order.push("first lets go")
          }),
        ),
      )
      yield* Effect.sleep(100)
      const standby = yield* Effect.forkChild(
        Effect.scoped(
          Effect.gen(function* () {
            yield* second.hold("notifier")
            order.push("second holds")
          }),
        ),
      )
      yield* Effect.sleep(200)
      expect(order).toEqual(["first holds"])
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(holder)
      yield* Fiber.join(standby)
    })
    await Effect.runPromise(program)
    expect(order).toEqual(["first holds", "first lets go", "second holds"])
  })

  it("keeps different work apart: holding one name never blocks another", async () => {
    const work = postgresExclusiveWork(postgresUrl(), { schema: freshSchema(), pollIntervalMs: 20 })
    await Effect.runPromise(
      Effect.scoped(Effect.all([work.hold("notifier"), work.hold("something-else")], { concurrency: 2 })),
    )
  })
})

describe("exclusive work on PostgreSQL, per schema", () => {
  it("never blocks the same work of a store in another schema", async () => {
    const url = postgresUrl()
    const a = postgresExclusiveWork(url, { schema: freshSchema(), pollIntervalMs: 20 })
    const b = postgresExclusiveWork(url, { schema: freshSchema(), pollIntervalMs: 20 })
    await Effect.runPromise(Effect.scoped(Effect.all([a.hold("notifier"), b.hold("notifier")], { concurrency: 2 })))
  })
})
