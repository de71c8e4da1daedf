import { Deferred, Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { inProcessExclusiveWork } from "../src/index.ts"

describe("exclusive work within one process", () => {
  it("has one holder of a name at a time: the second waits until the first's scope closes", async () => {
    const work = inProcessExclusiveWork()
    const order: Array<string> = []
    await Effect.runPromise(
      Effect.gen(function* () {
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.forkChild(
          Effect.scoped(
            Effect.gen(function* () {
              yield* work.hold("notifier")
              order.push("first")
              yield* Deferred.await(release)
            }),
          ),
        )
        yield* Effect.yieldNow
        const second = yield* Effect.forkChild(
          Effect.scoped(
            Effect.andThen(
              work.hold("notifier"),
              Effect.sync(() => order.push("second")),
            ),
          ),
        )
        yield* Effect.sleep(50)
        expect(order).toEqual(["first"])
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        yield* Fiber.join(second)
      }),
    )
    expect(order).toEqual(["first", "second"])
  })
})
