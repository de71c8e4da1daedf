import { describe, expect, it } from "@effect/vitest"
import { subjectKeysContract } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { makePostgresKeyTable } from "../src/index.ts"
import { freshSchema, openStore, postgresUrl } from "./support.ts"

subjectKeysContract(
  "postgres",
  Effect.map(
    Effect.suspend(() => openStore(freshSchema())),
    (store) => store.subjectKeys,
  ),
)

subjectKeysContract(
  "postgres, the key table alone",
  Effect.suspend(() => makePostgresKeyTable(postgresUrl(), { schema: freshSchema() })),
)

describe("the PostgreSQL key table alone", () => {
  it.effect("opened to be read, refuses a schema that holds no store, and finds the keys written there", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      const refused = yield* Effect.flip(makePostgresKeyTable(postgresUrl(), { schema, mustExist: true }))
      expect(refused.detail).toContain(`no Mizan store in schema "${schema}"`)
      const key = { keyId: "k1", subjectId: "card:a", wrappedKey: "d3JhcHBlZA==", masterKeyId: "mk-1", createdAt: 1 }
      yield* (yield* makePostgresKeyTable(postgresUrl(), { schema })).addKey(key)
      const reader = yield* makePostgresKeyTable(postgresUrl(), { schema, mustExist: true })
      expect(yield* reader.keyById("k1")).toEqual(key)
    }),
  )
})
