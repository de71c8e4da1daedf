/**
 * Versioned schema migrations. Each is applied once, in order, in the same
 * transaction as its row in `schema_migrations`, under a transaction-scoped
 * advisory lock: processes that start together queue on the lock, and the
 * second finds the work done. A database migrated by newer code refuses to
 * open with a NewerSchema error rather than be written in a shape this code
 * does not know.
 */
import { StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import type pg from "pg"
import { chainStoredEvents } from "./chainMigration.ts"
import { storeErrorFrom, streamVersionConstraint } from "./errors.ts"
import type { Tables } from "./tables.ts"

export interface Migration {
  readonly version: number
  readonly description: string
  readonly sql: (tables: Tables) => string
  /** Work SQL alone cannot do (hashing), run after `sql` in the same transaction. */
  readonly afterSql?: (client: pg.PoolClient, tables: Tables) => Promise<void>
}

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    description: "streams, events and checkpoints",
    sql: (t) => `
      -- One row per stream: its version is the compare-and-set an append claims.
      CREATE TABLE ${t.streams} (
        stream_id      text    PRIMARY KEY,
        stream_version integer NOT NULL CHECK (stream_version > 0)
      );
      -- The global log. global_position encodes the appending transaction (see globalPosition.ts).
      -- data is json, not jsonb: it is stored and returned exactly as written.
      CREATE TABLE ${t.events} (
        global_position bigint  PRIMARY KEY,
        stream_id       text    NOT NULL,
        stream_version  integer NOT NULL,
        event_id        text    NOT NULL,
        event_type      text    NOT NULL,
        schema_version  integer NOT NULL,
        data            json    NOT NULL,
        correlation_id  text,
        causation_id    text,
        recorded_at_ms  bigint  NOT NULL,
        CONSTRAINT ${streamVersionConstraint} UNIQUE (stream_id, stream_version)
      );
      CREATE TABLE ${t.checkpoints} (
        name            text   PRIMARY KEY,
        global_position bigint NOT NULL
      );
    `,
  },
  {
    version: 2,
    description: "the tamper-evident log: chain hashes and signed heads",
    sql: (t) => `
      -- SHA-256 hex over the stream's previous chain hash and this event (libs/eventsourcing/src/chain/chain.ts).
      -- Filled for every stored row by chainStoredEvents, then required.
      ALTER TABLE ${t.events} ADD COLUMN chain_hash text;
      -- Signed heads of the log, apart from it: cutting off the log's tail leaves the heads that covered it.
      CREATE TABLE ${t.signedHeads} (
        count           bigint PRIMARY KEY, -- events in the log up to and including last_event_id
        last_event_id   text   NOT NULL,
        digest          text   NOT NULL,
        signed_at_ms    bigint NOT NULL,
        signature       text   NOT NULL, -- Base64 SHA256withRSA
        global_position bigint NOT NULL  -- where this store holds last_event_id (not signed: an import moves it)
      );
    `,
    afterSql: async (client, t) => {
      await chainStoredEvents(client, t)
      await client.query(`ALTER TABLE ${t.events} ALTER COLUMN chain_hash SET NOT NULL`)
    },
  },
  {
    version: 3,
    description: "the key table of sealed personal data",
    sql: (t) => `
      -- One data key per data subject, wrapped by a master key that is not in the database.
      -- Forgetting a subject sets wrapped_key to NULL: its sealed fields can no longer be opened.
      CREATE TABLE ${t.subjectKeys} (
        key_id        text   PRIMARY KEY,
        subject_id    text   NOT NULL, -- kind: and a keyed HMAC, never the personal value
        wrapped_key   text,            -- Base64 AES-256-GCM under master_key_id; NULL once forgotten
        master_key_id text   NOT NULL,
        created_at_ms bigint NOT NULL,
        forgotten_at_ms bigint,
        forgotten_by  text
      );
      -- At most one live key per subject: two writers adding one at once keep the first.
      CREATE UNIQUE INDEX subject_keys_live ON ${t.subjectKeys} (subject_id) WHERE wrapped_key IS NOT NULL;
    `,
  },
]

/** The schema version this code writes. */
export const schemaVersion = migrations.at(-1)?.version ?? 0

/** The transaction-scoped lock a schema's migration (and its drop, schemas.ts) holds, keyed by the schema. */
export const migrationLockSql = "SELECT pg_advisory_xact_lock(hashtext('mizan.migrations'), hashtext($1))"

const inTransaction = async <A>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<A>): Promise<A> => {
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    const result = await body(client)
    await client.query("COMMIT")
    return result
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

/** A connection or the pool: what the version checks query through. */
type Queryable = Pick<pg.Pool, "query">

/** Whether the schema holds the store's migration table, the mark of a Mizan store. */
const hasMigrationTable = async (db: Queryable, tables: Tables): Promise<boolean> =>
  (await db.query<{ present: boolean }>("SELECT to_regclass($1) IS NOT NULL AS present", [tables.migrations])).rows[0]
    ?.present === true

/** The schema's version, refused when newer code wrote it: this code cannot know its shape. */
const versionFound = async (db: Queryable, tables: Tables): Promise<number> => {
  const { rows } = await db.query<{ version: number }>(
    `SELECT coalesce(max(version), 0) AS version FROM ${tables.migrations}`,
  )
  const found = rows[0]?.version ?? 0
  if (found > schemaVersion)
    throw new StoreError({
      reason: "NewerSchema",
      detail: `schema "${tables.schema}" is at version ${found}; this code knows versions up to ${schemaVersion}`,
    })
  return found
}

/**
 * For the tools that only read what a gateway wrote (the audit, the
 * notifier's operator commands): checks that the schema holds a Mizan store
 * at this code's version, and creates nothing. A mistyped schema would
 * otherwise be created and read as a store with nothing in it.
 */
export const requireMigrated = (pool: pg.Pool, tables: Tables): Effect.Effect<number, StoreError> =>
  Effect.tryPromise({
    try: async () => {
      if (!(await hasMigrationTable(pool, tables)))
        throw new StoreError({
          reason: "Unavailable",
          detail: `no Mizan store in schema "${tables.schema}": the schema does not exist or holds no Mizan tables, and is not created to be read (check the store setting)`,
        })
      const found = await versionFound(pool, tables)
      if (found < schemaVersion)
        throw new StoreError({
          reason: "Unavailable",
          detail: `schema "${tables.schema}" is at version ${found}, older than this code's ${schemaVersion}: start the gateway on it once to migrate it, then read it`,
        })
      return found
    },
    catch: storeErrorFrom(`reading schema "${tables.schema}"`),
  })

/** Brings the store's schema up to `schemaVersion`; answers the version it found. */
export const migrate = (pool: pg.Pool, tables: Tables): Effect.Effect<number, StoreError> =>
  Effect.tryPromise({
    try: () =>
      inTransaction(pool, async (client) => {
        await client.query(migrationLockSql, [tables.schema])
        // DDL only when there is something to do: a user who may only read and write the tables opens an up-to-date schema.
        if (!(await hasMigrationTable(client, tables))) {
          await client.query(`CREATE SCHEMA IF NOT EXISTS "${tables.schema}"`)
          await client.query(`
            CREATE TABLE ${tables.migrations} (
              version     integer     PRIMARY KEY,
              description text        NOT NULL,
              applied_at  timestamptz NOT NULL DEFAULT now()
            )`)
        }
        const found = await versionFound(client, tables)
        for (const migration of migrations) {
          if (migration.version <= found) continue
          await client.query(migration.sql(tables))
          await migration.afterSql?.(client, tables)
          await client.query(`INSERT INTO ${tables.migrations} (version, description) VALUES ($1, $2)`, [
            migration.version,
            migration.description,
          ])
        }
        return found
      }),
    catch: storeErrorFrom(`migrating schema "${tables.schema}"`),
  })
