import { StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"

/** The qualified names of one store's tables, all inside its own PostgreSQL schema. */
export interface Tables {
  readonly schema: string
  readonly migrations: string
  readonly streams: string
  readonly events: string
  readonly checkpoints: string
  readonly signedHeads: string
  readonly subjectKeys: string
}

/** Every table of a store, qualified: what its migrations create (schemas.ts drops them again). */
export const storeTablesOf = (tables: Tables): ReadonlyArray<string> => [
  tables.migrations,
  tables.streams,
  tables.events,
  tables.checkpoints,
  tables.signedHeads,
  tables.subjectKeys,
]

/** Lower-case letters, digits and underscores: a name that never needs quoting or escaping. */
const schemaNamePattern = /^[a-z_][a-z0-9_]{0,62}$/

export const defaultSchema = "mizan"

export const tablesIn = (schema: string): Effect.Effect<Tables, StoreError> =>
  schemaNamePattern.test(schema)
    ? Effect.succeed({
        schema,
        migrations: `"${schema}".schema_migrations`,
        streams: `"${schema}".streams`,
        events: `"${schema}".events`,
        checkpoints: `"${schema}".checkpoints`,
        signedHeads: `"${schema}".signed_heads`,
        subjectKeys: `"${schema}".subject_keys`,
      })
    : Effect.fail(
        new StoreError({
          reason: "InvalidRequest",
          detail: `schema name ${JSON.stringify(schema)} must be 1-63 lower-case letters, digits or underscores`,
        }),
      )
