import { existsSync, readFileSync } from "node:fs"
import { it as effectIt } from "@effect/vitest"
import {
  addingWhileDurabilityHeld,
  expectKeyAnsweredOnceDurable,
  subjectKeysContract,
} from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
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

  effectIt.live("answers a new key at once when the events are in the same file: their append's sync carries it", () =>
    Effect.gen(function* () {
      const syncs = gatedLogSyncs()
      const store = yield* openSqliteEventStore(yield* tempDatabasePath, {}, syncs.logSyncOf)
      const { first } = yield* addingWhileDurabilityHeld(store.subjectKeys, newKey, syncs.hold())
      expect(first).toBe("answered")
    }),
  )

  effectIt.live.each(["full-offloaded", "normal"] as const)(
    "answers a new key only once its sync is done when the file holds the keys alone (KurrentDB's keyTable), at %s",
    (synchronous) =>
      Effect.gen(function* () {
        const syncs = gatedLogSyncs()
        const keys = yield* openSqliteKeyTable(yield* tempDatabasePath, { synchronous }, syncs.logSyncOf)
        yield* expectKeyAnsweredOnceDurable(keys, newKey, syncs.hold())
      }),
  )
})
