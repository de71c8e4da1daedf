import { existsSync, readFileSync } from "node:fs"
import { it as effectIt } from "@effect/vitest"
import type { SubjectKeysShape } from "@mizan/eventsourcing"
import { type DurabilityGate, subjectKeysContract } from "@mizan/eventsourcing/testing"
import { Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { openSqliteKeyTable } from "../src/keyTable.ts"
import { openSqliteEventStore } from "../src/store.ts"
import { gatedLogSyncs, openFreshStore, tempDatabasePath } from "./support/stores.ts"

subjectKeysContract(
  "sqlite",
  Effect.map(openFreshStore(), ({ store }) => store.subjectKeys),
)

subjectKeysContract(
  "sqlite, the key table alone",
  Effect.flatMap(tempDatabasePath, (path) => openSqliteKeyTable(path)),
)

describe("the SQLite key table", () => {
  it("leaves no byte of a forgotten subject's wrapped key in the file or its write-ahead log", async () => {
    const wrappedKey = Buffer.from("a wrapped data key that must vanish").toString("base64")
    const files = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { path, store } = yield* openFreshStore()
          yield* store.subjectKeys.addKey({
            keyId: "k1",
            subjectId: "card:a",
            wrappedKey,
            masterKeyId: "mk-1",
            createdAt: 1,
          })
          const before = readFileSync(`${path}-wal`).includes(wrappedKey)
          yield* store.subjectKeys.forget("card:a", 2, "dpo")
          const bytes = [path, `${path}-wal`].filter(existsSync).map((file) => readFileSync(file))
          return { before, bytes }
        }),
      ),
    )
    expect(files.before).toBe(true)
    for (const bytes of files.bytes) expect(bytes.includes(wrappedKey)).toBe(false)
  })

  const newKey = { keyId: "k1", subjectId: "card:a", wrappedKey: "d3JhcHBlZA==", masterKeyId: "mk-1", createdAt: 1 }

  /** `addKey(newKey)` on `keys`, raced against its first request for a sync of the log, which `gate` holds back. */
  const addingWhileSyncsHeld = (keys: SubjectKeysShape, gate: DurabilityGate) =>
    Effect.gen(function* () {
      const adding = yield* Effect.forkChild(keys.addKey(newKey))
      const first = yield* Effect.raceFirst(
        Effect.as(Fiber.join(adding), "answered" as const),
        Effect.as(gate.waiting, "asked for a sync" as const),
      )
      return { first, adding }
    })

  effectIt.live("answers a new key at once when the events are in the same file: their append's sync carries it", () =>
    Effect.gen(function* () {
      const syncs = gatedLogSyncs()
      const store = yield* openSqliteEventStore(yield* tempDatabasePath, {}, syncs.logSyncOf)
      const { first } = yield* addingWhileSyncsHeld(store.subjectKeys, syncs.hold())
      expect(first).toBe("answered")
    }),
  )

  effectIt.live.each(["full-offloaded", "normal"] as const)(
    "answers a new key only once its sync is done when the file holds the keys alone (KurrentDB's keyTable), at %s",
    (synchronous) =>
      Effect.gen(function* () {
        const syncs = gatedLogSyncs()
        const keys = yield* openSqliteKeyTable(yield* tempDatabasePath, { synchronous }, syncs.logSyncOf)
        const gate = syncs.hold()
        const { first, adding } = yield* addingWhileSyncsHeld(keys, gate)
        expect(first).toBe("asked for a sync")
        // A while after asking, still unanswered: an addKey that asked and went on would have answered by now.
        yield* Effect.sleep(20)
        expect(adding.pollUnsafe()).toBeUndefined()
        yield* gate.release
        expect(yield* Fiber.join(adding)).toEqual(newKey)
      }),
  )
})
