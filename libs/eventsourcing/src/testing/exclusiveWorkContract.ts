/**
 * The contract every ExclusiveWork adapter passes: one holder of a name at a
 * time, the next taking over when the first lets go, and names kept apart.
 * `make` answers two holders as two processes would have them (each its own
 * connection); `sameStore` says whether they share one store.
 */
import { Deferred, Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import type { ExclusiveWork } from "../exclusiveWork.ts"

export const exclusiveWorkContract = (
  adapter: string,
  make: () => readonly [ExclusiveWork["Service"], ExclusiveWork["Service"]],
) =>
  describe(`exclusive work (${adapter})`, () => {
    it("has one holder of a name at a time: the second waits until the first lets go, then takes over", async () => {
      const [first, second] = make()
      const order: Array<string> = []
      await Effect.runPromise(
        Effect.gen(function* () {
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
          // The first has taken it before the second asks.
          while (order.length === 0) yield* Effect.sleep(5)
          const standby = yield* Effect.forkChild(
            Effect.scoped(
              Effect.andThen(
                second.hold("notifier"),
                Effect.sync(() => order.push("second holds")),
              ),
            ),
          )
          yield* Effect.sleep(200)
          expect(order).toEqual(["first holds"])
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(holder)
          yield* Fiber.join(standby)
        }),
      )
      expect(order).toEqual(["first holds", "first lets go", "second holds"])
    })

    it("keeps names apart: holding one never blocks another", async () => {
      const [first, second] = make()
      await Effect.runPromise(
        Effect.scoped(Effect.all([first.hold("notifier"), second.hold("something-else")], { concurrency: 2 })),
      )
    })
  })
