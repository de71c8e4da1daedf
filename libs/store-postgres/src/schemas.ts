/**
 * A schema as a whole, for a tool that opens a store it may create (the
 * audit's `import`): whether the schema, or a store's tables in it, are
 * there before, and dropping what the store's opening created (the schema,
 * or the tables in a schema that was there) when what the store was made
 * for fails, so that no empty or part-written store is left to be read as
 * a clean one.
 */
import type { StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import pg from "pg"
import { storeErrorFrom } from "./errors.ts"
import { migrationLockSql } from "./migrations.ts"
import { defaultSchema, storeTablesOf, type Tables, tablesIn } from "./tables.ts"

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
 * Whether the schema holds any table of a Mizan store (a store, whole or in
 * part): false for a schema that does not exist, and for one that is empty
 * or holds other tables alone. A store opened in a schema that is there
 * but holds none creates its tables beside whatever the schema holds.
 */
export const postgresSchemaHoldsStore = (
  connectionString: string,
  schema: string = defaultSchema,
): Effect.Effect<boolean, StoreError> =>
  Effect.flatMap(tablesIn(schema), (tables) =>
    withClient(connectionString, `looking for a store in schema "${tables.schema}"`, async (client) => {
      const { rows } = await client.query<{ present: boolean }>(
        "SELECT coalesce(bool_or(to_regclass(name) IS NOT NULL), false) AS present FROM unnest($1::text[]) AS name",
        [storeTablesOf(tables)],
      )
      return rows[0]?.present === true
    }),
  )

/** `statement` in one transaction under the migrations' lock: a store opening the schema meanwhile waits for it. */
const underMigrationLock = (connectionString: string, action: string, tables: Tables, statement: string) =>
  withClient(connectionString, action, async (client) => {
    await client.query("BEGIN")
    try {
      await client.query(migrationLockSql, [tables.schema])
      await client.query(statement)
      await client.query("COMMIT")
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined)
      throw error
    }
  })

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
    underMigrationLock(
      connectionString,
      `dropping schema "${tables.schema}"`,
      tables,
      `DROP SCHEMA IF EXISTS "${tables.schema}" CASCADE`,
    ),
  )

/**
 * Drops a store's tables from the schema, every one its migrations create,
 * under the migrations' lock, and leaves the schema and whatever else it
 * holds. Only for a schema the caller found there but holding none of them
 * (`postgresSchemaHoldsStore`) and then opened a store in.
 */
export const dropPostgresStoreTables = (
  connectionString: string,
  schema: string = defaultSchema,
): Effect.Effect<void, StoreError> =>
  Effect.flatMap(tablesIn(schema), (tables) =>
    underMigrationLock(
      connectionString,
      `dropping the store's tables in schema "${tables.schema}"`,
      tables,
      // RESTRICT: a table of the schema's own that came to depend on one of them (a foreign key, a view) keeps it.
      `DROP TABLE IF EXISTS ${storeTablesOf(tables).join(", ")} RESTRICT`,
    ),
  )
