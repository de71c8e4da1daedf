/**
 * The key table of a PostgreSQL database alone: the data keys of sealed
 * events kept in another store (a KurrentDB store's
 * `keyTable=postgres://...`). The schema is migrated as a store's is, so it
 * holds the store's tables too, empty: one migration history says what any
 * Mizan schema holds, however it was opened. Only the event store is not
 * built on it: no LISTEN connection, no followers. A new key is durable once
 * its insert is acknowledged, as every commit is here, so nothing waits for
 * more.
 */
import { type StoreError, SubjectKeys, type SubjectKeysShape } from "@mizan/eventsourcing"
import { Effect, Layer, type Scope } from "effect"
import { openTables, type PostgresStoreOptions, postgresStoreDefaults } from "./PostgresEventStore.ts"
import { postgresSubjectKeys } from "./subjectKeys.ts"

/** What a key table alone is opened with: the store's own options that concern it (README.md). */
export type PostgresKeyTableOptions = Pick<PostgresStoreOptions, "schema" | "poolSizeConnections" | "mustExist">

/** The key table in `options.schema` of the database at `connectionString`; the pool ends with the scope. */
export const makePostgresKeyTable = (
  connectionString: string,
  options: PostgresKeyTableOptions = {},
): Effect.Effect<SubjectKeysShape, StoreError, Scope.Scope> =>
  Effect.map(openTables(connectionString, { ...postgresStoreDefaults, ...options }), ({ pool, tables }) =>
    postgresSubjectKeys(pool, tables),
  )

/** `makePostgresKeyTable` as SubjectKeys, for events kept in another store. */
export const layerPostgresKeyTable = (
  connectionString: string,
  options?: PostgresKeyTableOptions,
): Layer.Layer<SubjectKeys, StoreError> => Layer.effect(SubjectKeys, makePostgresKeyTable(connectionString, options))
