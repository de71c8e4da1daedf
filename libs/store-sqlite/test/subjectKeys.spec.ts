import { existsSync, readFileSync } from "node:fs"
import { subjectKeysContract } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { openFreshStore } from "./support/stores.ts"

subjectKeysContract(
  "sqlite",
  Effect.map(openFreshStore(), ({ store }) => store.subjectKeys),
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
})
