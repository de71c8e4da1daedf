/**
 * The store's SQL, one prepared statement per operation. Statement names
 * carry the schema, because node-postgres prepares a name once per
 * connection and two stores may share a database.
 */
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
  /** NULL only while migration 2 chains the rows stored before it. */
  readonly chain_hash: string | null
}

const eventColumns =
  "global_position, stream_id, stream_version, event_id, event_type, schema_version, data, correlation_id, causation_id, recorded_at_ms, chain_hash"

/** The columns of a signed head's row. */
export interface SignedHeadRow {
  readonly count: string
  readonly last_event_id: string
  readonly digest: string
  readonly signed_at_ms: string
  readonly signature: string
  readonly global_position: string
}

const signedHeadColumns = "count, last_event_id, digest, signed_at_ms, signature, global_position"

/**
 * How an append claims its versions on the stream's row, by what it expects.
 * Each answers `version_before` for a claim it won and no row for one it
 * lost. The row stays locked until the append commits, so a concurrent
 * append to the same stream waits and then re-checks (READ COMMITTED
 * re-evaluates UPDATE and ON CONFLICT against the committed row). There is
 * no claim for "any": the chain hashes are computed before the statement,
 * from the version the append builds on, so the store appends "any" at the
 * version it last saw (appends.ts).
 * Parameters: $1 stream id, $2 event count, `expectedVersion` the expected version.
 */
const claimSql = (t: Tables, expectedVersion: string) => ({
  new: `INSERT INTO ${t.streams} (stream_id, stream_version) VALUES ($1, $2::integer)
        ON CONFLICT (stream_id) DO NOTHING
        RETURNING 0 AS version_before`,
  at: `UPDATE ${t.streams} SET stream_version = stream_version + $2::integer
       WHERE stream_id = $1 AND stream_version = ${expectedVersion}::integer
       RETURNING ${expectedVersion}::integer AS version_before`,
})

/**
 * One statement, so one round trip and one implicit transaction: claim the
 * versions, then insert the events (nothing, when the claim was lost).
 * $3 recorded at (ms), $4-$10 the events' columns as parallel arrays. Data
 * travels as JSON text and is cast to json here: parsing it inside a JSON
 * document would refuse a `\u0000` escape, which json (unlike jsonb) stores.
 * `placeInTransaction` is SQL for each event's place among its transaction's
 * events (globalPosition.ts): its place in the append, for an append alone.
 */
const appendSql = (t: Tables, claim: string, placeInTransaction = "e.ordinal") => `
  WITH claimed AS (${claim})
  INSERT INTO ${t.events} (${eventColumns})
  SELECT ${transactionBaseSql} + ${placeInTransaction}, $1, claimed.version_before + e.ordinal, e.id, e.type,
         e.schema_version, e.data::json, e.correlation_id, e.causation_id, $3::bigint, e.chain_hash
  FROM claimed,
       unnest($4::text[], $5::text[], $6::integer[], $7::text[], $8::text[], $9::text[], $10::text[])
         WITH ORDINALITY AS e(id, type, schema_version, data, correlation_id, causation_id, chain_hash, ordinal)
  RETURNING global_position, stream_version`

/**
 * A part of an appendMany: the append statement run inside the appendMany's
 * transaction, its events placed after the $11 events of the parts before it
 * (so that they follow those in the log); $12 the expected version.
 */
const appendPartSql = (t: Tables, claim: string) => appendSql(t, claim, "$11::integer + e.ordinal")

export const statementsFor = (t: Tables) => {
  const named = (operation: string, text: string): Statement => ({ name: `mizan.${t.schema}.${operation}`, text })
  const claims = claimSql(t, "$11")
  const appendNew = named("append-new", appendSql(t, claims.new))
  const appendAt = named("append-at", appendSql(t, claims.at))
  const partClaims = claimSql(t, "$12")
  const appendPartNew = named("append-part-new", appendPartSql(t, partClaims.new))
  const appendPartAt = named("append-part-at", appendPartSql(t, partClaims.at))
  return {
    /** The statement for an append at a known version (0: a new stream). */
    append: (version: number): Statement => (version === 0 ? appendNew : appendAt),
    /** The statement for a part of an appendMany at a known version (0: a new stream). */
    appendPart: (version: number): Statement => (version === 0 ? appendPartNew : appendPartAt),
    /** $1 stream id: the version and chain hash of its last event (no row for a stream with none). */
    streamHead: named(
      "stream-head",
      `SELECT stream_version, chain_hash FROM ${t.events} WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1`,
    ),
    /** $1 stream id, $2 version: that event's chain hash. */
    chainHashAt: named(
      "chain-hash-at",
      `SELECT chain_hash FROM ${t.events} WHERE stream_id = $1 AND stream_version = $2::integer`,
    ),
    /** $1..$6 a signed head; a second head at one count keeps the first. */
    storeSignedHead: named(
      "store-signed-head",
      `INSERT INTO ${t.signedHeads} (${signedHeadColumns}) VALUES ($1::bigint, $2, $3, $4::bigint, $5, $6::bigint)
       ON CONFLICT (count) DO NOTHING`,
    ),
    /** $1 after this count, $2 how many. */
    readSignedHeads: named(
      "read-signed-heads",
      `SELECT ${signedHeadColumns} FROM ${t.signedHeads} WHERE count > $1::bigint ORDER BY count LIMIT $2::integer`,
    ),
    readLastSignedHead: named(
      "read-last-signed-head",
      `SELECT ${signedHeadColumns} FROM ${t.signedHeads} ORDER BY count DESC LIMIT 1`,
    ),
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
    /**
     * readAll with the data as its JSON text (`::text` of a json column is
     * the text as written), parsed only for the streams a read's
     * `wholeEventsOf` accepts (records.ts).
     */
    readAllDataText: named(
      "read-all-data-text",
      `SELECT ${eventColumns.replace(" data,", " data::text AS data,")} FROM ${t.events}
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
