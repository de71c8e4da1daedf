/** Rows to the port's records, shared by the store and the migration that chains stored rows. */
import { placeOnly, type RecordedEvent, type SignedHead } from "@mizan/eventsourcing"
import type { EventRow, SignedHeadRow } from "./statements.ts"

/**
 * Metadata as the port returns it: only the ids that were given, and when
 * the store recorded the event. One object literal per case, no spreads:
 * readAll builds one per event, and a spread of a temporary object per
 * field costs more than the rest of the record.
 */
export const metadataOf = (correlationId: string | null, causationId: string | null, recordedAt: number) => {
  if (correlationId === null) return causationId === null ? { recordedAt } : { causationId, recordedAt }
  return causationId === null ? { correlationId, recordedAt } : { correlationId, causationId, recordedAt }
}

/** The record of a row; a row that migration 2 has not chained yet has no chain hash. */
export const toRecordedEvent = (row: EventRow): RecordedEvent => {
  const record = {
    id: row.event_id,
    streamId: row.stream_id,
    type: row.event_type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: metadataOf(row.correlation_id, row.causation_id, Number(row.recorded_at_ms)),
    streamVersion: row.stream_version,
    globalPosition: BigInt(row.global_position),
    chainHash: row.chain_hash,
  }
  if (record.chainHash !== null) return record as RecordedEvent
  const { chainHash: _unchained, ...unchained } = record
  return unchained
}

/**
 * The record of a row read with its data as text (`statements.readAllDataText`):
 * whole, its data parsed, for a stream `wholeEventsOf` accepts; its place
 * alone, nothing parsed, for any other.
 */
export const toRecordOrPlace = (row: EventRow, wholeEventsOf: (streamId: string) => boolean): RecordedEvent =>
  wholeEventsOf(row.stream_id)
    ? toRecordedEvent({ ...row, data: JSON.parse(row.data as string) })
    : placeOnly(toRecordedEvent(row))

export const toSignedHead = (row: SignedHeadRow): SignedHead => ({
  count: Number(row.count),
  lastEventId: row.last_event_id,
  digest: row.digest,
  signedAt: Number(row.signed_at_ms),
  signature: row.signature,
  position: BigInt(row.global_position),
})
