/**
 * Events to rows and back. Data and metadata are stored as JSON text, the
 * form the port promises (`data` is plain JSON, events.ts).
 */
import { randomUUIDv7 } from "node:crypto"
import { chainHashOf, type EventMetadata, type NewEvent, type RecordedEvent, StoreError } from "@mizan/eventsourcing"

/** An event encoded for its row, before the writer gives it a stream version and a position. */
export interface EncodedEvent {
  readonly id: string
  readonly type: string
  readonly schemaVersion: number
  readonly dataJson: string
  /** NULL in the row when the event has no metadata. */
  readonly metadataJson: string | null
}

const encodeEvent = (event: NewEvent): EncodedEvent => {
  const dataJson: string | undefined = JSON.stringify(event.data)
  if (dataJson === undefined) throw new TypeError("its data has no JSON form")
  const metadataJson = event.metadata === undefined ? "{}" : JSON.stringify(event.metadata)
  return {
    // Time-ordered ids land at the end of the unique index on event_id instead of on a random page of it,
    // so a group commit rewrites a few index pages instead of one page per event.
    id: event.id ?? randomUUIDv7(),
    type: event.type,
    schemaVersion: event.schemaVersion,
    dataJson,
    metadataJson: metadataJson === "{}" ? null : metadataJson,
  }
}

/** Encodes an append's events, or says which one has no JSON form (naming its type, never its data). */
export const encodeEvents = (events: ReadonlyArray<NewEvent>): ReadonlyArray<EncodedEvent> | StoreError => {
  const encoded: Array<EncodedEvent> = []
  for (const [i, event] of events.entries()) {
    try {
      encoded.push(encodeEvent(event))
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      return new StoreError({
        reason: "InvalidRequest",
        detail: `event ${i + 1} (${event.type}) cannot be stored as JSON: ${why}`,
      })
    }
  }
  return encoded
}

const metadataOf = (metadataJson: string | null, recordedAt: number): RecordedEvent["metadata"] =>
  metadataJson === null ? { recordedAt } : { ...(JSON.parse(metadataJson) as EventMetadata), recordedAt }

/**
 * The chained fields of an event the writer is about to insert, and its
 * chain hash: computed from the data parsed back from the stored text, so
 * that the hash covers exactly what a later read returns.
 */
export const chainedOfEncoded = (
  event: EncodedEvent,
  streamId: string,
  streamVersion: number,
  recordedAt: number,
  previousChainHash: string,
) => {
  const fields = {
    id: event.id,
    streamId,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: JSON.parse(event.dataJson) as unknown,
    metadata: metadataOf(event.metadataJson, recordedAt),
    streamVersion,
  }
  return { fields, chainHash: chainHashOf(previousChainHash, fields) }
}

/** The columns every read selects, in this order (statements return arrays, the cheapest row shape). */
export const eventColumns =
  "global_position, event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at, chain_hash"

export type EventRow = readonly [
  globalPosition: number,
  eventId: string,
  streamId: string,
  streamVersion: number,
  type: string,
  schemaVersion: number,
  data: string,
  metadata: string | null,
  recordedAt: number,
  chainHash: string,
]

/** The record of a stored row. Positions are read as numbers, exact up to 2^53 events. */
export const recordOfRow = (row: EventRow): RecordedEvent => ({
  id: row[1],
  streamId: row[2],
  type: row[4],
  schemaVersion: row[5],
  data: JSON.parse(row[6]),
  metadata: metadataOf(row[7], row[8]),
  streamVersion: row[3],
  globalPosition: BigInt(row[0]),
  chainHash: row[9],
})
