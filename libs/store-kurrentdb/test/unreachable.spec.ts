/**
 * What can be checked here without a KurrentDB server: the real client,
 * pointed at a port where nothing listens, and how the adapter reports it.
 */
import { createServer } from "node:net"
import { it } from "@effect/vitest"
import { KurrentDBClient } from "@kurrent/kurrentdb-client"
import { logStart } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { beforeAll, describe, expect } from "vitest"
import { makeKurrentDbEventStore } from "../src/index.ts"
import { storeOn } from "../src/KurrentDbEventStore.ts"
import { namespaceOf } from "../src/mapping.ts"

let deadUrl = ""

beforeAll(async () => {
  // A port that was free a moment ago: nothing listens on it.
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })
  deadUrl = `kurrentdb://127.0.0.1:${port}?tls=false`
})

const withDeadStore = <A, E>(use: (store: ReturnType<typeof storeOn>) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => KurrentDBClient.connectionString(deadUrl)),
    (client) => use(storeOn(client, namespaceOf(""), 100)),
    (client) => Effect.promise(() => client.dispose()),
  )

const event = { type: "A", schemaVersion: 1, data: {} }

// The client gives up on the dead port by its own deadlines, in real time: the TestClock of it.effect does not reach
// them, and the timeouts below leave room for them.
describe("kurrentdb store without a server", () => {
  it.effect(
    "fails to open with Unavailable",
    () =>
      Effect.gen(function* () {
        const error = yield* Effect.scoped(Effect.flip(makeKurrentDbEventStore(deadUrl)))
        expect(error).toMatchObject({ _tag: "StoreError", reason: "Unavailable" })
      }),
    20_000,
  )

  it.effect(
    "reports every operation's connection failure as Unavailable",
    () =>
      withDeadStore((store) =>
        Effect.gen(function* () {
          const failures = [
            yield* Effect.flip(store.append("s", [event], "no_stream")),
            yield* Effect.flip(store.readStream("s")),
            yield* Effect.flip(store.readAll({ after: logStart, maxCount: 10 })),
            yield* Effect.flip(store.readCheckpoint("notifier")),
            yield* Effect.flip(store.storeCheckpoint("notifier", 7n)),
          ]
          for (const failure of failures) expect(failure).toMatchObject({ _tag: "StoreError", reason: "Unavailable" })
        }),
      ),
    30_000,
  )

  it.effect("refuses an event id that is not a UUID before it reaches the server", () =>
    withDeadStore((store) =>
      Effect.map(Effect.flip(store.append("s", [{ ...event, id: "order-1/1" }], "any")), (error) =>
        expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" }),
      ),
    ),
  )

  it.effect("refuses a connection string that does not parse without repeating it (it may hold a password)", () =>
    Effect.gen(function* () {
      const error = yield* Effect.scoped(Effect.flip(makeKurrentDbEventStore("postgres://mizan:s3cret@db/mizan")))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
      expect(error.message).not.toContain("s3cret")
    }),
  )

  it.effect("refuses a namespace that would make its streams system streams", () =>
    Effect.gen(function* () {
      const error = yield* Effect.scoped(Effect.flip(makeKurrentDbEventStore(deadUrl, { namespace: "$mizan-" })))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
    }),
  )
})
