import { logStart } from "@mizan/eventsourcing"
import { Effect, Fiber, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { appendChannel } from "../src/index.ts"
import { Followers, LatchedAppendSignal } from "../src/wakeups.ts"
import { freshSchema, openStore, rawClient, sql } from "./support.ts"

const elapsedMs = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const start = performance.now()
    yield* effect
    return performance.now() - start
  })

describe("follower wake-ups", () => {
  it("wakes a waiting follower at once on notify", () =>
    Effect.runPromise(
      Effect.gen(function* () {
        const signal = new LatchedAppendSignal()
        const waiting = yield* Effect.forkChild(elapsedMs(signal.wait(10_000)))
        yield* Effect.sleep(20)
        signal.notify()
        expect(yield* Fiber.join(waiting)).toBeLessThan(1_000)
      }),
    ))

  it("remembers a notify that came while the follower was reading, so its next wait returns at once", () =>
    Effect.runPromise(
      Effect.gen(function* () {
        const signal = new LatchedAppendSignal()
        signal.notify()
        expect(yield* elapsedMs(signal.wait(10_000))).toBeLessThan(1_000)
        // The latch is spent: the next wait lasts until its poll interval.
        expect(yield* elapsedMs(signal.wait(100))).toBeGreaterThanOrEqual(90)
      }),
    ))

  it("wakes every follower that has joined, and none that has left", () => {
    const followers = new Followers()
    const staying = followers.join()
    const leaving = followers.join()
    followers.leave(leaving)
    followers.wakeAll()
    expect(followers.count).toBe(1)
    return Effect.runPromise(
      Effect.gen(function* () {
        expect(yield* elapsedMs(staying.wait(10_000))).toBeLessThan(1_000)
        expect(yield* elapsedMs(leaving.wait(100))).toBeGreaterThanOrEqual(90)
      }),
    )
  })

  it("wakes a follower in another process (its own pool and listener) by NOTIFY, long before it would poll", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const schema = freshSchema()
          const writer = yield* openStore(schema)
          const reader = yield* openStore(schema, { pollIntervalMs: 60_000 })
          const follower = yield* Effect.forkChild(Stream.runCollect(Stream.take(reader.follow(logStart), 1)))
          // Let the follower read the empty log and start waiting, and its listener connect.
          yield* Effect.sleep(300)
          const { records } = yield* writer.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream")
          const seen = yield* Fiber.join(follower).pipe(Effect.timeout(5_000))
          expect(seen).toEqual(records)
        }),
      ),
    ))

  it("listens again after its LISTEN connection is dropped, and is woken by NOTIFY as before", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const schema = freshSchema()
          const reader = yield* openStore(schema, { pollIntervalMs: 60_000, listenRetryDelayMs: 50 })
          yield* Effect.sleep(200)
          const admin = yield* rawClient
          const dropped = yield* sql<{ terminated: boolean }>(
            admin,
            `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
             WHERE query LIKE $1 AND pid <> pg_backend_pid()`,
            [`%LISTEN "${appendChannel(schema)}"%`],
          )
          expect(dropped).toEqual([{ terminated: true }])
          const follower = yield* Effect.forkChild(Stream.runCollect(Stream.take(reader.follow(logStart), 1)))
          yield* Effect.sleep(500)
          const writer = yield* openStore(schema)
          const { records } = yield* writer.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream")
          expect(yield* Fiber.join(follower).pipe(Effect.timeout(5_000))).toEqual(records)
        }),
      ),
    ))
})
