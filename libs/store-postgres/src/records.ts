/** Rows to the port's records, shared by the store and the migration that chains stored rows. */
import type { RecordedEvent, SignedHead } from "@mizan/eventsourcing"
import type { EventRow, SignedHeadRow } from "./statements.ts"

/** Metadata as the port returns it: only the ids that were given, and when the store recorded the event. */
export const metadataOf = (correlationId: string | null, causationId: string | null, recordedAt: number) => ({
  ...(correlationId === null ? {} : { correlationId }),
  ...(causationId === null ? {} : { causationId }),
  recordedAt,
})

/** The record of a row; a row that migration 2 has not chained yet has no chain hash. */
export const toRecordedEvent = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  streamId: row.stream_id,
  type: row.event_type,
  schemaVersion: row.schema_version,
  data: row.data,
  metadata: metadataOf(row.correlation_id, row.causation_id, Number(row.recorded_at_ms)),
  streamVersion: row.stream_version,
  globalPosition: BigInt(row.global_position),
  ...(row.chain_hash === null ? {} : { chainHash: row.chain_hash }),
})

export const toSignedHead = (row: SignedHeadRow): SignedHead => ({
  count: Number(row.count),
  lastEventId: row.last_event_id,
  digest: row.digest,
  signedAt: Number(row.signed_at_ms),
  signature: row.signature,
  position: BigInt(row.global_position),
})
