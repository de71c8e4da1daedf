/**
 * What the EventStore port records. An event's `data` is plain JSON (the
 * aggregate's codec encodes it), so every adapter stores it the same way.
 */
import { Schema } from "effect"

/** A position in the global log. Adapters number it as they must (KurrentDB's commit positions are 64-bit). */
export type GlobalPosition = bigint

/** The position before the first event of the log: reading after it reads everything. */
export const logStart: GlobalPosition = -1n

/**
 * What an append expects of the stream: that it has no events yet, that it
 * has exactly this many (its version), or nothing at all.
 */
export const ExpectedVersion = Schema.Union([Schema.Literals(["no_stream", "any"]), Schema.Number])
export type ExpectedVersion = typeof ExpectedVersion.Type

export interface EventMetadata {
  readonly correlationId?: string
  readonly causationId?: string
}

/** An event on its way into the store. */
export interface NewEvent {
  /** A unique id; the store makes one when it is absent. */
  readonly id?: string
  readonly type: string
  readonly schemaVersion: number
  readonly data: unknown
  readonly metadata?: EventMetadata
}

/** An event as the store recorded it. */
export interface RecordedEvent {
  readonly id: string
  readonly streamId: string
  readonly type: string
  readonly schemaVersion: number
  readonly data: unknown
  readonly metadata: EventMetadata & {
    /**
     * When the store recorded it, ms since the epoch, by the store's Clock:
     * one reading per append, so every event of an append carries the same
     * time (readers such as the audit tell an append's events by it).
     */
    readonly recordedAt: number
  }
  /** 1 for the first event of its stream, counting up without gaps. */
  readonly streamVersion: number
  /** Its place in the global log: strictly increasing in the order readers see. */
  readonly globalPosition: GlobalPosition
  /**
   * SHA-256 over its stream's previous chain hash and its own recorded
   * fields (`chainHashOf`, chain.ts), computed by the store that recorded
   * it. Absent only where an adapter keeps no chain (KurrentDB, its README).
   */
  readonly chainHash?: string
}

/** One stream's part of an `appendMany`: its events, and the version its stream must be at. */
export interface StreamAppend {
  readonly streamId: string
  readonly events: ReadonlyArray<NewEvent>
  readonly expected: ExpectedVersion
}

export interface AppendResult {
  /** The stream's version after the append: what the next append expects. */
  readonly streamVersion: number
  readonly records: ReadonlyArray<RecordedEvent>
}

/** The stream was not at the version the append expected: someone else appended first. */
export class VersionConflict extends Schema.TaggedError<VersionConflict>()("VersionConflict", {
  streamId: Schema.String,
  expected: ExpectedVersion,
  actual: Schema.Number,
}) {
  override get message(): string {
    return `stream ${this.streamId} is at version ${this.actual}, the append expected ${String(this.expected)}`
  }
}

/**
 * Why a store failed: `Unavailable` (it cannot be reached or opened),
 * `NewerSchema` (written by a newer schema than this code knows), `Corrupt`
 * (its file or data is damaged), `Locked` (another process holds it),
 * `Undecodable` (a recorded event does not decode with the aggregate's
 * schema), `InvalidRequest` (the request breaks a rule of the port: an
 * empty append, a bad position).
 */
export const StoreErrorReason = Schema.Literals([
  "Unavailable",
  "NewerSchema",
  "Corrupt",
  "Locked",
  "Undecodable",
  "InvalidRequest",
])
export type StoreErrorReason = typeof StoreErrorReason.Type

/**
 * A stored event a read cannot give back (its JSON no longer parses), by
 * what the store still reads of its row: its id, stream, type, schema
 * version, versions, position and recorded time, and `why`, which names no
 * data (the data may be personal). A reader that can go on past one event
 * (the audit's replay) reports it here and reads on after its position.
 */
export const DamagedEvent = Schema.Struct({
  id: Schema.String,
  streamId: Schema.String,
  type: Schema.String,
  schemaVersion: Schema.Number,
  streamVersion: Schema.Number,
  globalPosition: Schema.BigInt,
  recordedAt: Schema.Number,
  why: Schema.String,
})
export type DamagedEvent = typeof DamagedEvent.Type

/** What a read still knows of an event it cannot give back: its place as recorded (its data and metadata left out). */
export const damagedEventAt = (record: RecordedEvent, why: string): DamagedEvent => ({
  id: record.id,
  streamId: record.streamId,
  type: record.type,
  schemaVersion: record.schemaVersion,
  streamVersion: record.streamVersion,
  globalPosition: record.globalPosition,
  recordedAt: record.metadata.recordedAt,
  why,
})

export class StoreError extends Schema.TaggedError<StoreError>()("StoreError", {
  reason: StoreErrorReason,
  detail: Schema.String,
  cause: Schema.optionalKey(Schema.Unknown),
  /** The event a read failed at, when one stored event is damaged (reason `Corrupt`). */
  damagedEvent: Schema.optionalKey(DamagedEvent),
}) {
  override get message(): string {
    return `${this.reason}: ${this.detail}`
  }
}
