import { randomBytes } from "node:crypto"
import { Effect, type Scope } from "effect"
import pg from "pg"
import { inject } from "vitest"
import { makePostgresEventStore, type PostgresStoreOptions } from "../src/index.ts"

/** The test server's connection string (see globalSetup.ts). */
export const postgresUrl = (): string => inject("postgresUrl")

/** A schema name no other test uses: each test's store starts empty. */
export const freshSchema = (): string => `t_${randomBytes(6).toString("hex")}`

export const openStore = (schema: string, options: PostgresStoreOptions = {}) =>
  makePostgresEventStore(postgresUrl(), { ...options, schema })

/** A plain connection to the test server, closed with the scope: for looking behind the store's back. */
export const rawClient: Effect.Effect<pg.Client, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: postgresUrl() })
    client.on("error", () => undefined)
    await client.connect()
    return client
  }),
  (client) => Effect.promise(() => client.end()),
)

export const sql = <Row extends object = Record<string, unknown>>(
  client: pg.Client,
  text: string,
  values: ReadonlyArray<unknown> = [],
) => Effect.promise(() => client.query<Row>(text, [...values]).then((result) => result.rows))
