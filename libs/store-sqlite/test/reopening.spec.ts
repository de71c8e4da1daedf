/**
 * The reopening of a file whose connection cannot write (src/reopening.ts),
 * on connections made up here: which refusals reopen, in which order the
 * old connection closes and the new one opens, and the delays between
 * reopenings, moved on the TestClock. The real read-only file, made
 * writable again under a running gateway, is apps/gateway/test/writeHealth.spec.ts's.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { OnFile } from "../src/connection.ts"
import { makeReopening, reopenDelayFirstMs, reopenDelayMaxMs } from "../src/reopening.ts"

/** SQLite's refusal of a write on a connection it opened read-only, as the store hands it on. */
const readOnlyRefusal = new StoreError({
  reason: "Unavailable",
  detail: "appending: attempt to write a readonly database",
  cause: Object.assign(new Error("attempt to write a readonly database"), { errcode: 8 }),
})

/** Another failure of a write: a full disk, which a new connection would not cure. */
const diskFull = new StoreError({
  reason: "Unavailable",
  detail: "appending: database or disk is full",
  cause: Object.assign(new Error("database or disk is full"), { errcode: 13 }),
})

/** A writable file, so that a connection opened on it is not taken for read-only before it refuses a write. */
const path = join(mkdtempSync(join(tmpdir(), "mizan-reopening-")), "store.db")
writeFileSync(path, "")

interface Connection {
  readonly number: number
  /** What its writes answer. */
  writes: Effect.Effect<number, StoreError>
}

/** Connections numbered as they open, writing as `writesOf` says; what happened, in order, in `story`. */
const connections = (writesOf: (number: number) => Effect.Effect<number, StoreError>) => {
  const story: Array<string> = []
  let opened = 0
  const open = (): OnFile<Connection> => {
    opened++
    const number = opened
    story.push(`open ${number}`)
    return { opened: { number, writes: writesOf(number) }, close: () => story.push(`close ${number}`) }
  }
  return { story, open }
}

const write = (reopening: ReturnType<typeof makeReopening<Connection>>) =>
  reopening.use("write", (connection) => connection.writes)

describe("a connection that refuses writes as read-only", () => {
  it.effect("is closed, then the file is opened again, and the next write goes to the new connection", () =>
    Effect.gen(function* () {
      const { story, open } = connections((number) =>
        number === 1 ? Effect.fail(readOnlyRefusal) : Effect.succeed(number),
      )
      const reopening = makeReopening(path, open)
      expect(yield* Effect.flip(write(reopening))).toBe(readOnlyRefusal)
      expect(yield* write(reopening)).toBe(2)
      expect(story).toEqual(["open 1", "close 1", "open 2"])
    }),
  )

  it.effect("is not reopened for a failure a new connection would not cure", () =>
    Effect.gen(function* () {
      const { story, open } = connections(() => Effect.fail(diskFull))
      const reopening = makeReopening(path, open)
      yield* Effect.flip(write(reopening))
      yield* TestClock.adjust(reopenDelayMaxMs)
      yield* Effect.flip(write(reopening))
      expect(story).toEqual(["open 1"])
    }),
  )

  it.effect("waits 100 ms, then twice as long each time up to 5 s, while the new connections still cannot write", () =>
    Effect.gen(function* () {
      expect(reopenDelayFirstMs).toBe(100)
      expect(reopenDelayMaxMs).toBe(5_000)
      const { story, open } = connections(() => Effect.fail(readOnlyRefusal))
      const reopening = makeReopening(path, open)
      const opensAfter = function* (waitMs: number) {
        const before = story.filter((line) => line.startsWith("open")).length
        yield* TestClock.adjust(waitMs)
        yield* Effect.flip(write(reopening))
        return story.filter((line) => line.startsWith("open")).length - before
      }
      // The first refusal reopens at once; then each wait must pass in full before the next reopening.
      yield* Effect.flip(write(reopening))
      expect(story).toEqual(["open 1", "close 1", "open 2"])
      const waits = [100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]
      for (const waitMs of waits) {
        expect(yield* opensAfter(waitMs - 1)).toBe(0)
        expect(yield* opensAfter(1)).toBe(1)
      }
    }),
  )

  it.effect("waits 100 ms again once a write went through", () =>
    Effect.gen(function* () {
      let refusing = true
      const { story, open } = connections(() =>
        Effect.suspend(() => (refusing ? Effect.fail(readOnlyRefusal) : Effect.succeed(0))),
      )
      const reopening = makeReopening(path, open)
      // Three reopenings: the delay grew to 400 ms.
      yield* Effect.flip(write(reopening))
      yield* TestClock.adjust(100)
      yield* Effect.flip(write(reopening))
      yield* TestClock.adjust(200)
      yield* Effect.flip(write(reopening))
      refusing = false
      yield* TestClock.adjust(400)
      yield* write(reopening)
      refusing = true
      yield* Effect.flip(write(reopening))
      const opens = story.filter((line) => line.startsWith("open")).length
      yield* TestClock.adjust(100)
      yield* Effect.flip(write(reopening))
      expect(story.filter((line) => line.startsWith("open")).length).toBe(opens + 1)
    }),
  )

  it.effect("is not condemned by a refusal an older connection answers after the reopening", () =>
    Effect.gen(function* () {
      // Connection 1 answers after a turn, so that both writes below are under way on it before either is answered.
      const { story, open } = connections((number) =>
        number === 1 ? Effect.andThen(Effect.yieldNow, Effect.fail(readOnlyRefusal)) : Effect.succeed(number),
      )
      const reopening = makeReopening(path, open)
      // Two writes on connection 1 at once: the first refusal reopens, the second is answered after it.
      yield* Effect.all([Effect.flip(write(reopening)), Effect.flip(write(reopening))], { concurrency: 2 })
      yield* TestClock.adjust(reopenDelayMaxMs)
      expect(yield* write(reopening)).toBe(2)
      expect(story).toEqual(["open 1", "close 1", "open 2"])
    }),
  )

  it.effect("answers why it could not be opened again until a later reopening opens it", () =>
    Effect.gen(function* () {
      const story: Array<string> = []
      let opens = 0
      const cannotOpen = new StoreError({ reason: "Unavailable", detail: "unable to open database file" })
      const reopening = makeReopening<Connection>(path, () => {
        opens++
        const number = opens
        story.push(`open ${number}`)
        if (number === 2) throw cannotOpen
        return {
          opened: { number, writes: number === 1 ? Effect.fail(readOnlyRefusal) : Effect.succeed(number) },
          close: () => story.push(`close ${number}`),
        }
      })
      yield* Effect.flip(write(reopening))
      expect((yield* Effect.flip(write(reopening))).detail).toContain("unable to open database file")
      yield* TestClock.adjust(reopenDelayFirstMs)
      expect(yield* write(reopening)).toBe(3)
      expect(story).toEqual(["open 1", "close 1", "open 2", "open 3"])
    }),
  )
})
