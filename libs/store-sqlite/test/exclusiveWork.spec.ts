import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Deferred, Effect, Fiber } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { sqliteExclusiveWork } from "../src/index.ts"

const folder = mkdtempSync(join(tmpdir(), "mizan-sqlite-exclusive-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe("exclusive work on one SQLite store", () => {
  it("lets one holder at a time do it: a second waits until the first lets go, then takes over", async () => {
    const storePath = join(folder, "store.db")
    const first = sqliteExclusiveWork(storePath, 20)
    const second = sqliteExclusiveWork(storePath, 20)
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
    const work = sqliteExclusiveWork(join(folder, "store.db"), 20)
    await Effect.runPromise(
      Effect.scoped(Effect.all([work.hold("notifier"), work.hold("something-else")], { concurrency: 2 })),
    )
  })
})
