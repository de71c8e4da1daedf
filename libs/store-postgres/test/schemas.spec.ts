import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  dropPostgresSchema,
  dropPostgresStoreTables,
  postgresSchemaExists,
  postgresSchemaHoldsStore,
} from "../src/index.ts"
import { freshSchema, openStore, postgresUrl, rawClient, sql } from "./support.ts"

describe("a schema as a whole", () => {
  it.effect("is found missing, there once a store is opened in it, and gone with its tables once dropped", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      expect(yield* postgresSchemaExists(postgresUrl(), schema)).toBe(false)
      yield* Effect.scoped(
        Effect.flatMap(openStore(schema), (store) =>
          store.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream"),
        ),
      )
      expect(yield* postgresSchemaExists(postgresUrl(), schema)).toBe(true)
      yield* dropPostgresSchema(postgresUrl(), schema)
      expect(yield* postgresSchemaExists(postgresUrl(), schema)).toBe(false)
      // Opened again, it is a new, empty store.
      const reopened = yield* openStore(schema)
      expect(yield* reopened.readStream("s")).toEqual([])
    }),
  )

  it.effect("has a store's every table taken out of a schema that was there, its own tables left", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const schema = freshSchema()
        const client = yield* rawClient
        yield* sql(client, `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.notes (line text)`)
        expect(yield* postgresSchemaHoldsStore(postgresUrl(), schema)).toBe(false)
        yield* Effect.scoped(
          Effect.flatMap(openStore(schema), (store) =>
            store.append("s", [{ type: "A", schemaVersion: 1, data: {} }], "no_stream"),
          ),
        )
        expect(yield* postgresSchemaHoldsStore(postgresUrl(), schema)).toBe(true)
        yield* dropPostgresStoreTables(postgresUrl(), schema)
        expect(yield* postgresSchemaHoldsStore(postgresUrl(), schema)).toBe(false)
        // Every table the migrations made is gone (a table a later migration adds and the drop forgets would stay).
        const left = yield* sql<{ tablename: string }>(
          client,
          "SELECT tablename FROM pg_tables WHERE schemaname = $1",
          [schema],
        )
        expect(left.map((row) => row.tablename)).toEqual(["notes"])
        expect(yield* postgresSchemaHoldsStore(postgresUrl(), freshSchema())).toBe(false)
      }),
    ),
  )

  it.effect("refuses a name that would need quoting, as a store does, touching nothing", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(dropPostgresSchema(postgresUrl(), 'x"; DROP SCHEMA public; --'))
      expect(refused.reason).toBe("InvalidRequest")
    }),
  )

  it.effect("answers Unavailable when no server answers", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(postgresSchemaExists("postgres://mizan@127.0.0.1:1/mizan", "mizan"))
      expect(refused.reason).toBe("Unavailable")
    }),
  )
})
