import { it } from "@effect/vitest"
import { logStart } from "@mizan/eventsourcing"
import { Effect, Fiber, Schedule, Stream } from "effect"
import type pg from "pg"
import { describe, expect } from "vitest"
import { appendChannel } from "../src/index.ts"
import { Followers, LatchedAppendSignal } from "../src/wakeups.ts"
import { freshSchema, openStore, rawClient, sql } from "./support.ts"

const elapsedMs = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const start = performance.now()
    yield* effect
    return performance.now() - start
  })

/** The backends listening on a schema's append channel, as the server sees them. */
const listeners = (admin: pg.Client, schema: string) =>
  Effect.map(
    sql<{ pid: number }>(
      admin,
      `SELECT pid FROM pg_stat_activity WHERE query LIKE $1 AND state = 'idle' AND pid <> pg_backend_pid()`,
      [`%LISTEN "${appendChannel(schema)}"%`],
    ),
    (rows) => rows.map((row) => row.pid),
  )

/** Waits until some backend other than `except` listens on the schema's channel: the store's listener is connected. */
const listening = (admin: pg.Client, schema: string, except: ReadonlyArray<number> = []) =>
  listeners(admin, schema).pipe(
    Effect.filterOrFail((pids) => pids.some((pid) => !except.includes(pid))),
    Effect.retry({ schedule: Schedule.spaced(10), times: 500 }),
  )

describe("follower wake-ups", () => {
  it.live("wakes a waiting follower at once on notify", () =>
    Effect.gen(function* () {
      const signal = new LatchedAppendSignal()
      const waiting = yield* Effect.forkChild(elapsedMs(signal.wait(10_000)))
      // The follower starts waiting on its first run.
      yield* Effect.yieldNow
      signal.notify()
      expect(yield* Fiber.join(waiting)).toBeLessThan(1_000)
    }),
  )

  it.live("remembers a notify that came while the follower was reading, so its next wait returns at once", () =>
    Effect.gen(function* () {
      const signal = new LatchedAppendSignal()
      signal.notify()
      expect(yield* elapsedMs(signal.wait(10_000))).toBeLessThan(1_000)
      // The latch is spent: the next wait lasts until its poll interval.
      expect(yield* elapsedMs(signal.wait(100))).toBeGreaterThanOrEqual(90)
    }),
  )

  it.live("wakes every follower that has joined, and none that has left", () =>
    Effect.gen(function* () {
      const followers = new Followers()
      const staying = followers.join()
      const leaving = followers.join()
      followers.leave(leaving)
      followers.wakeAll()
      expect(followers.count).toBe(1)
      expect(yield* elapsedMs(staying.wait(10_000))).toBeLessThan(1_000)
      expect(yield* elapsedMs(leaving.wait(100))).toBeGreaterThanOrEqual(90)
    }),
  )

  it.live("wakes a follower in another process (its own pool and listener) by NOTIFY, long before it would poll", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      const admin = yield* rawClient
      const writer = yield* openStore(schema)
      const reader = yield* openStore(schema, { pollIntervalMs: 60_000 })
      const follower = yield* Effect.forkChild(Stream.runCollect(Stream.take(reader.follow(logStart), 1)))
      yield* listening(admin, schema)
      const { records } = yield* writer.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream")
      // The reader polls once a minute: only the NOTIFY can wake it within the timeout.
      const seen = yield* Fiber.join(follower).pipe(Effect.timeout(5_000))
      expect(seen).toEqual(records)
    }),
  )

  it.live("listens again after its LISTEN connection is dropped, and is woken by NOTIFY as before", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      const admin = yield* rawClient
      const reader = yield* openStore(schema, { pollIntervalMs: 60_000, listenRetryDelayMs: 50 })
      const first = yield* listening(admin, schema)
      const dropped = yield* sql<{ terminated: boolean }>(admin, "SELECT pg_terminate_backend($1) AS terminated", [
        first[0],
      ])
      expect(dropped).toEqual([{ terminated: true }])
      const follower = yield* Effect.forkChild(Stream.runCollect(Stream.take(reader.follow(logStart), 1)))
      // A new listener, on a new connection.
      yield* listening(admin, schema, first)
      const writer = yield* openStore(schema)
      const { records } = yield* writer.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream")
      expect(yield* Fiber.join(follower).pipe(Effect.timeout(5_000))).toEqual(records)
    }),
  )
})
