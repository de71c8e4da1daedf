/**
 * Events to rows and back. Data and metadata are stored as JSON text, the
 * form the port promises (`data` is plain JSON, events.ts): canonical JSON
 * (keys sorted), which SQLite keeps exactly as written, so that the chain
 * hash is computed over the very text the append encodes to store, not
 * over a second encoding of the data.
 */
import { randomUUIDv7 } from "node:crypto"
import {
  type ChainedFields,
  canonicalJsonOrNothing,
  chainHashOfStored,
  type DamagedEvent,
  damagedEventAt,
  type EventMetadata,
  type NewEvent,
  type RecordedEvent,
  StoreError,
} from "@mizan/eventsourcing"

/**
 * How the writer encodes an event's data and metadata to store them, and
 * chains it: `chained`, always, in the product. The seam exists for one
 * reader, the sealing benchmark (tools/bench/src/sealing.ts), which
 * measures what the tamper-evident chain costs an append against the same
 * store without it; it reaches `openSqliteEventStore` (store.ts) by the
 * source file, and the package index exports neither that nor this, so no
 * option turns tamper evidence off.
 */
export interface Chaining {
  /** The JSON text an event's data (and metadata) is stored as; undefined for a value with none. */
  readonly encode: (value: unknown) => string | undefined
  /** The chain hash of an event after `previous`, given its data as `encode` wrote it. */
  readonly hash: (previous: string, event: ChainedFields, dataJson: string) => string
}

/** Canonical JSON stored, and hashed as it is stored (`chainHashOfStored`: the bytes `chainHashOf` hashes). */
export const chained: Chaining = { encode: canonicalJsonOrNothing, hash: chainHashOfStored }

/** An event encoded for its row, before the writer gives it a stream version and a position. */
export interface EncodedEvent {
  readonly id: string
  readonly type: string
  readonly schemaVersion: number
  readonly dataJson: string
  /** NULL in the row when the event has no metadata. */
  readonly metadataJson: string | null
  /**
   * The data and metadata as a read gives them back: the caller's own values
   * when their JSON reads back equal to them (`readsBackEqual`), so that the
   * writer need not parse the text it just wrote; undefined otherwise.
   */
  readonly dataAsRead: unknown
  readonly metadataAsRead: EventMetadata | undefined
}

/**
 * Whether `JSON.parse(JSON.stringify(value))` is a deep copy of `value`, so
 * that the value stands for what a read returns (and hashes to the same
 * canonical JSON): null, strings, booleans, finite numbers but -0, arrays
 * without holes of such values, and plain objects (Object's prototype) of
 * such values. Anything else (a Date, undefined, NaN, a class
 * instance, a toJSON) reads back changed, and the writer parses its text.
 * A walk over the value, far cheaper than parsing its text.
 */
export const readsBackEqual = (value: unknown): boolean => {
  if (value === null) return true
  switch (typeof value) {
    case "string":
    case "boolean":
      return true
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0)
    case "object": {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !readsBackEqual(value[i])) return false
        return true
      }
      // A null-prototype object reads back with Object's.
      if (Object.getPrototypeOf(value) !== Object.prototype) return false
      const record = value as Record<string, unknown>
      for (const key of Object.keys(record)) if (!readsBackEqual(record[key])) return false
      return true
    }
    default:
      return false
  }
}

const encodeEvent = (event: NewEvent, encode: Chaining["encode"]): EncodedEvent => {
  const dataJson = encode(event.data)
  if (dataJson === undefined) throw new TypeError("its data has no JSON form")
  const metadataJson = event.metadata === undefined ? "{}" : (encode(event.metadata) ?? "{}")
  return {
    // Time-ordered ids land at the end of the unique index on event_id instead of on a random page of it,
    // so a group commit rewrites a few index pages instead of one page per event.
    id: event.id ?? randomUUIDv7(),
    type: event.type,
    schemaVersion: event.schemaVersion,
    dataJson,
    metadataJson: metadataJson === "{}" ? null : metadataJson,
    dataAsRead: readsBackEqual(event.data) ? event.data : undefined,
    metadataAsRead: event.metadata !== undefined && readsBackEqual(event.metadata) ? event.metadata : undefined,
  }
}

/** Encodes an append's events, or says which one has no JSON form (naming its type, never its data). */
export const encodeEvents = (
  events: ReadonlyArray<NewEvent>,
  encode: Chaining["encode"],
): ReadonlyArray<EncodedEvent> | StoreError => {
  const encoded: Array<EncodedEvent> = []
  for (const [i, event] of events.entries()) {
    try {
      encoded.push(encodeEvent(event, encode))
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

const metadataOf = (metadataJson: string | null, recordedAt: number): RecordedEvent["metadata"] => {
  if (metadataJson === null) return { recordedAt }
  // The parsed object is this read's own: the recorded time goes into it, not into a copy of it.
  const metadata = JSON.parse(metadataJson) as EventMetadata & { recordedAt: number }
  metadata.recordedAt = recordedAt
  return metadata
}

/**
 * The chained fields of an event the writer is about to insert, as a later
 * read returns them (the caller's own data when it reads back equal, else
 * the stored text parsed back), and its chain hash: over the stored text
 * itself, whose canonical JSON it is (canonicalJson.ts), so that the hash
 * covers exactly what a read gives.
 */
export const chainedOfEncoded = (
  event: EncodedEvent,
  streamId: string,
  streamVersion: number,
  recordedAt: number,
  previousChainHash: string,
  hash: Chaining["hash"],
) => {
  const fields = {
    id: event.id,
    streamId,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.dataAsRead ?? (JSON.parse(event.dataJson) as unknown),
    metadata:
      event.metadataAsRead === undefined
        ? metadataOf(event.metadataJson, recordedAt)
        : { ...event.metadataAsRead, recordedAt },
    streamVersion,
  }
  return { fields, chainHash: hash(previousChainHash, fields, event.dataJson) }
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

/** The place of a stored row alone, its JSON not parsed: what a read gives of a stream its `wholeEventsOf` refuses. */
export const placeOfRow = (row: EventRow): RecordedEvent => ({
  id: row[1],
  streamId: row[2],
  type: row[4],
  schemaVersion: row[5],
  data: undefined,
  metadata: { recordedAt: row[8] },
  streamVersion: row[3],
  globalPosition: BigInt(row[0]),
  chainHash: row[9],
})

/**
 * A stored row whose JSON no longer parses, named by its place: never by
 * JSON.parse's message, which quotes the text (personal data, perhaps).
 */
export class DamagedEventJson extends Error {
  readonly event: DamagedEvent
  constructor(event: DamagedEvent) {
    super(
      `the stored JSON of ${event.streamId} v${event.streamVersion} at global position ${event.globalPosition} is damaged`,
    )
    this.event = event
  }
}

const parses = (json: string | null): boolean => {
  try {
    if (json !== null) JSON.parse(json)
    return true
  } catch {
    return false
  }
}

/** The place of a row whose JSON does not parse (every column but the JSON), and which of its two texts it is. */
const damagedEventOf = (row: EventRow): DamagedEvent =>
  damagedEventAt(placeOfRow(row), parses(row[6]) ? "its stored metadata is not JSON" : "its stored data is not JSON")

/** The records of rows: whole for the streams `wholeEventsOf` accepts (every stream without it), places for the others. */
export const recordsOfRows = (
  rows: ReadonlyArray<EventRow>,
  wholeEventsOf: ((streamId: string) => boolean) | undefined,
): Array<RecordedEvent> => {
  try {
    return wholeEventsOf === undefined
      ? rows.map(recordOfRow)
      : rows.map((row) => (wholeEventsOf(row[2]) ? recordOfRow(row) : placeOfRow(row)))
  } catch (error) {
    // Found again row by row only once the page failed: the read of a sound page stays one map.
    const damaged = rows.find((row) => (wholeEventsOf?.(row[2]) ?? true) && !(parses(row[6]) && parses(row[7])))
    throw error instanceof SyntaxError && damaged !== undefined ? new DamagedEventJson(damagedEventOf(damaged)) : error
  }
}
