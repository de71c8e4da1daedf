/**
 * Background work that the store fails starts again on `restartDelays`, on
 * the test's clock; a defect stops it for good.
 */
import { it } from "@effect/vitest"
import { type Duration, Effect, Exit, Fiber, References } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import { restartedOnFailure, StoreError } from "../src/index.ts"

/** Work that the store fails `failures` times, then answers how many starts it took. */
const workFailing = (failures: number) => {
  const starts = { count: 0 }
  const work = Effect.suspend(() => {
    starts.count++
    return starts.count <= failures
      ? Effect.fail(new StoreError({ reason: "Unavailable", detail: "the test's outage" }))
      : Effect.succeed(starts.count)
  })
  return { starts, work }
}

/** How many starts there have been after each move of the test's clock, in turn. */
const startsAfterEach = (starts: { readonly count: number }, moves: ReadonlyArray<Duration.Input>) =>
  Effect.forEach(moves, (move) => Effect.map(TestClock.adjust(move), () => starts.count))

const quietly = Effect.provideService(References.MinimumLogLevel, "None")

describe("restartedOnFailure", () => {
  it.effect("starts the work again a second after the store failed it, then after two more", () =>
    Effect.gen(function* () {
      const { starts, work } = workFailing(2)
      const fiber = yield* Effect.forkChild(restartedOnFailure("test work", work))
      expect(yield* startsAfterEach(starts, ["0 millis", "999 millis", "1 millis", "1999 millis", "1 millis"])).toEqual(
        [1, 1, 2, 2, 3],
      )
      expect(yield* Fiber.join(fiber)).toBe(3)
    }).pipe(quietly),
  )

  it.effect("waits at most half a minute between starts, however long the store fails", () =>
    Effect.gen(function* () {
      const { starts, work } = workFailing(Number.POSITIVE_INFINITY)
      yield* Effect.forkChild(restartedOnFailure("test work", work))
      // 1 + 2 + 4 + 8 + 16 seconds, and then every 30.
      expect(yield* startsAfterEach(starts, ["31 seconds", "29 seconds", "1 second"])).toEqual([6, 6, 7])
    }).pipe(quietly),
  )

  it.effect("stops for good on a defect", () =>
    Effect.gen(function* () {
      let starts = 0
      const work = Effect.suspend(() => {
        starts++
        return Effect.die(new Error("a bug"))
      })
      const exit = yield* Effect.exit(restartedOnFailure("test work", work))
      yield* TestClock.adjust("1 minute")
      expect(Exit.hasDies(exit)).toBe(true)
      expect(starts).toBe(1)
    }).pipe(quietly),
  )
})
