/**
 * The store's SQL, one prepared statement per operation. Statement names
 * carry the schema, because node-postgres prepares a name once per
 * connection and two stores may share a database.
 */
import type { ExpectedVersion } from "@mizan/eventsourcing"
import { transactionBaseSql, visibleBelowSql } from "./globalPosition.ts"
import type { Tables } from "./tables.ts"

export interface Statement {
  readonly name: string
  readonly text: string
}

/** The columns of an event row, as `toRecordedEvent` reads them. */
export interface EventRow {
  readonly global_position: string
  readonly stream_id: string
  readonly stream_version: number
  readonly event_id: string
  readonly event_type: string
  readonly schema_version: number
  readonly data: unknown
  readonly correlation_id: string | null
  readonly causation_id: string | null
  readonly recorded_at_ms: string
}

const eventColumns =
  "global_position, stream_id, stream_version, event_id, event_type, schema_version, data, correlation_id, causation_id, recorded_at_ms"

/**
 * How an append claims its versions on the stream's row, by what it expects.
 * Each answers `version_before` for a claim it won and no row for one it
 * lost. The row stays locked until the append commits, so a concurrent
 * append to the same stream waits and then re-checks (READ COMMITTED
 * re-evaluates UPDATE and ON CONFLICT against the committed row).
 * Parameters: $1 stream id, $2 event count, $10 expected version.
 */
const claimSql = (t: Tables) => ({
  any: `INSERT INTO ${t.streams} AS s (stream_id, stream_version) VALUES ($1, $2::integer)
        ON CONFLICT (stream_id) DO UPDATE SET stream_version = s.stream_version + excluded.stream_version
        RETURNING s.stream_version - $2::integer AS version_before`,
  new: `INSERT INTO ${t.streams} (stream_id, stream_version) VALUES ($1, $2::integer)
        ON CONFLICT (stream_id) DO NOTHING
        RETURNING 0 AS version_before`,
  at: `UPDATE ${t.streams} SET stream_version = stream_version + $2::integer
       WHERE stream_id = $1 AND stream_version = $10::integer
       RETURNING $10::integer AS version_before`,
})

/**
 * One statement, so one round trip and one implicit transaction: claim the
 * versions, then insert the events (nothing, when the claim was lost).
 * $3 recorded at (ms), $4-$9 the events' columns as parallel arrays. Data
 * travels as JSON text and is cast to json here: parsing it inside a JSON
 * document would refuse a `\u0000` escape, which json (unlike jsonb) stores.
 */
const appendSql = (t: Tables, claim: string) => `
  WITH claimed AS (${claim})
  INSERT INTO ${t.events} (${eventColumns})
  SELECT ${transactionBaseSql} + e.ordinal, $1, claimed.version_before + e.ordinal, e.id, e.type, e.schema_version,
         e.data::json, e.correlation_id, e.causation_id, $3::bigint
  FROM claimed,
       unnest($4::text[], $5::text[], $6::integer[], $7::text[], $8::text[], $9::text[])
         WITH ORDINALITY AS e(id, type, schema_version, data, correlation_id, causation_id, ordinal)
  RETURNING global_position, stream_version`

export const statementsFor = (t: Tables) => {
  const named = (operation: string, text: string): Statement => ({ name: `mizan.${t.schema}.${operation}`, text })
  const claims = claimSql(t)
  const appendAny = named("append-any", appendSql(t, claims.any))
  const appendNew = named("append-new", appendSql(t, claims.new))
  const appendAt = named("append-at", appendSql(t, claims.at))
  return {
    /** The statement for an append, by what it expects of the stream. */
    append: (expected: ExpectedVersion): Statement =>
      expected === "any" ? appendAny : expected === "no_stream" || expected === 0 ? appendNew : appendAt,
    /**
     * A stream's version, for the VersionConflict of a lost claim. The events
     * table is asked too, in case a claim was lost to the unique constraint.
     */
    streamVersion: named(
      "stream-version",
      `SELECT greatest(
         (SELECT stream_version FROM ${t.streams} WHERE stream_id = $1),
         (SELECT max(stream_version) FROM ${t.events} WHERE stream_id = $1),
         0) AS version`,
    ),
    /** $1 stream id, $2 first version, $3 how many (NULL: all). */
    readStream: named(
      "read-stream",
      `SELECT ${eventColumns} FROM ${t.events}
       WHERE stream_id = $1 AND stream_version >= $2::integer
       ORDER BY stream_version LIMIT $3::integer`,
    ),
    /** $1 after this position, $2 how many; never past what every reader will always see. */
    readAll: named(
      "read-all",
      `SELECT ${eventColumns} FROM ${t.events}
       WHERE global_position > $1::bigint AND global_position < ${visibleBelowSql}
       ORDER BY global_position LIMIT $2::integer`,
    ),
    readCheckpoint: named("read-checkpoint", `SELECT global_position FROM ${t.checkpoints} WHERE name = $1`),
    storeCheckpoint: named(
      "store-checkpoint",
      `INSERT INTO ${t.checkpoints} (name, global_position) VALUES ($1, $2::bigint)
       ON CONFLICT (name) DO UPDATE SET global_position = excluded.global_position`,
    ),
  }
}

export type Statements = ReturnType<typeof statementsFor>
