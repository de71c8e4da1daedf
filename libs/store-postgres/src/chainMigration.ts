/**
 * Schema version 2 makes a store written before the tamper-evident log
 * verifiable: it computes every stored event's chain hash, stream by
 * stream from its first event, exactly as an append computes it for a new
 * one. The chain then vouches for those events only from the migration on:
 * an edit made before it is chained in as if it had always been there
 * (README.md, The chain).
 */
import { chainGenesis, chainHashOf } from "@mizan/eventsourcing"
import type pg from "pg"
import { toRecordedEvent } from "./records.ts"
import type { EventRow } from "./statements.ts"
import type { Tables } from "./tables.ts"

/** Rows read and hashed at a time: bounds the memory of migrating a large store. */
export const chainMigrationPageRows = 1_000

export const chainStoredEvents = async (client: pg.PoolClient, t: Tables): Promise<void> => {
  // Keyset pages in (stream_id, stream_version) order, the unique constraint's index: each stream's events in order.
  let after: readonly [string, number] = ["", 0]
  let previous = chainGenesis
  while (true) {
    const { rows } = await client.query<EventRow>(
      `SELECT global_position, stream_id, stream_version, event_id, event_type, schema_version, data,
              correlation_id, causation_id, recorded_at_ms, chain_hash
       FROM ${t.events} WHERE (stream_id, stream_version) > ($1, $2::integer)
       ORDER BY stream_id, stream_version LIMIT $3::integer`,
      [after[0], after[1], chainMigrationPageRows],
    )
    const hashes: Array<string> = []
    for (const row of rows) {
      const record = toRecordedEvent(row)
      previous = chainHashOf(record.streamVersion === 1 ? chainGenesis : previous, record)
      hashes.push(previous)
    }
    if (rows.length === 0) return
    await client.query(
      `UPDATE ${t.events} AS e SET chain_hash = u.chain_hash
       FROM unnest($1::bigint[], $2::text[]) AS u(global_position, chain_hash)
       WHERE e.global_position = u.global_position`,
      [rows.map((row) => row.global_position), hashes],
    )
    const last = rows.at(-1)!
    after = [last.stream_id, last.stream_version]
  }
}
