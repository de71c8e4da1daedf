/**
 * A schema as a whole, for a tool that opens a store it may create (the
 * audit's `import`): whether the schema is there before, and dropping it
 * again when what the store was made for fails, so that no empty or
 * part-written store is left to be read as a clean one.
 */
import type { StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import pg from "pg"
import { storeErrorFrom } from "./errors.ts"
import { migrationLockSql } from "./migrations.ts"
import { defaultSchema, tablesIn } from "./tables.ts"

/** One connection of its own for `body`, ended after it whatever it answers. */
const withClient = <A>(connectionString: string, action: string, body: (client: pg.Client) => Promise<A>) =>
  Effect.tryPromise({
    try: async () => {
      const client = new pg.Client({ connectionString, application_name: "mizan" })
      // A connection that dies between queries fails the query; without a listener Node would crash the process.
      client.on("error", () => undefined)
      try {
        await client.connect()
        return await body(client)
      } finally {
        await client.end().catch(() => undefined)
      }
    },
    catch: storeErrorFrom(action),
  })

/** Whether the database holds a schema of that name, a Mizan store or anything else. */
export const postgresSchemaExists = (
  connectionString: string,
  schema: string = defaultSchema,
): Effect.Effect<boolean, StoreError> =>
  Effect.flatMap(tablesIn(schema), (tables) =>
    withClient(connectionString, `looking for schema "${tables.schema}"`, async (client) => {
      const { rows } = await client.query<{ present: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS present",
        [tables.schema],
      )
      return rows[0]?.present === true
    }),
  )

/**
 * Drops the schema and everything in it, under the migrations' lock (a
 * store opening it meanwhile waits, then creates it afresh). Only for a
 * schema the caller found missing (`postgresSchemaExists`) and then created.
 */
export const dropPostgresSchema = (
  connectionString: string,
  schema: string = defaultSchema,
): Effect.Effect<void, StoreError> =>
  Effect.flatMap(tablesIn(schema), (tables) =>
    withClient(connectionString, `dropping schema "${tables.schema}"`, async (client) => {
      await client.query("BEGIN")
      try {
        await client.query(migrationLockSql, [tables.schema])
        await client.query(`DROP SCHEMA IF EXISTS "${tables.schema}" CASCADE`)
        await client.query("COMMIT")
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined)
        throw error
      }
    }),
  )
