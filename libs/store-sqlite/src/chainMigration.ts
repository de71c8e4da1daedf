/**
 * Schema version 2 makes a store written before the tamper-evident log
 * verifiable: it computes every stored event's chain hash, stream by
 * stream from its first event, exactly as the writer computes it for a new
 * one. The chain then vouches for those events only from the migration on:
 * an edit made before it is chained in as if it had always been there
 * (README.md, The chain).
 */
import type { DatabaseSync } from "node:sqlite"
import { chainGenesis, chainHashOf } from "@mizan/eventsourcing"
import { type EventRow, eventColumns, recordOfRow } from "./rows.ts"

/** Rows read and hashed at a time: bounds the memory of migrating a large file. */
export const chainMigrationPageRows = 1_000

export const chainStoredEvents = (db: DatabaseSync): void => {
  // Keyset pages in (stream_id, stream_version) order, the unique index: each stream's events come in order,
  // and no update is made under a read still open on the same table.
  const page = db.prepare(
    `SELECT ${eventColumns} FROM events WHERE (stream_id, stream_version) > (?, ?) ORDER BY stream_id, stream_version LIMIT ?`,
  )
  page.setReturnArrays(true)
  const update = db.prepare("UPDATE events SET chain_hash = ? WHERE global_position = ?")
  let after: readonly [string, number] = ["", 0]
  let previous = chainGenesis
  while (true) {
    const rows = page.all(after[0], after[1], chainMigrationPageRows) as unknown as ReadonlyArray<EventRow>
    for (const row of rows) {
      const record = recordOfRow(row)
      const chainHash = chainHashOf(record.streamVersion === 1 ? chainGenesis : previous, record)
      update.run(chainHash, row[0])
      previous = chainHash
    }
    const last = rows.at(-1)
    if (last === undefined) return
    after = [last[2], last[3]]
  }
}
