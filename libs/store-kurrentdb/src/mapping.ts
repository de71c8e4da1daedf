/**
 * The pure half of the KurrentDB adapter: how the port's versions,
 * positions, events and errors map to the client's. Everything here is
 * unit-tested without a server (see README.md for what that does and does
 * not prove).
 */

import {
  ANY,
  type AppendStreamState,
  type CurrentStreamState,
  type JSONType,
  NO_STREAM,
  type ReadPosition,
  START,
} from "@kurrent/kurrentdb-client"
import {
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  StoreError,
  type StoreErrorReason,
  VersionConflict,
} from "@mizan/eventsourcing"
import { withoutUndefined } from "@mizan/kernel"
import { Result } from "effect"

// --- versions ----------------------------------------------------------------
// The port counts a stream's events (version n: n events, the first is 1);
// KurrentDB numbers them (revision r: the event at index r, from 0).

/** The stream state an append expects, in the client's terms. */
export const streamStateFor = (expected: ExpectedVersion): AppendStreamState => {
  if (expected === "any") return ANY
  if (expected === "no_stream" || expected === 0) return NO_STREAM
  // A stream at version n has n events; its last one is revision n - 1.
  return BigInt(expected - 1)
}

/** The port's version of the event at `revision`. */
export const versionOfRevision = (revision: bigint): number => Number(revision) + 1

/** The revision of the event at `version`. */
export const revisionOfVersion = (version: number): bigint => BigInt(version - 1)

/**
 * A stream's version from the state a WrongExpectedVersion error reports.
 * Deleted and tombstoned streams report negative revisions; Mizan never
 * deletes, and counts them as empty.
 */
export const versionOfStreamState = (state: CurrentStreamState): number =>
  state === NO_STREAM || state < 0n ? 0 : versionOfRevision(state)

// --- positions ---------------------------------------------------------------
// A global position is the event's commit position. For events written by
// appends (implicit transactions) KurrentDB gives each event its own log
// position and commit == prepare; only the legacy explicit transactions
// share a commit position, and Mizan does not write them.

/**
 * Where a forward read of `$all` starts for the events after `after`. The
 * server's start position is inclusive, so the read returns the event at
 * `after` again; `isAfter` drops it.
 */
export const readAllStart = (after: GlobalPosition): ReadPosition =>
  after < 0n ? START : { commit: after, prepare: after }

export const isAfter = (position: GlobalPosition, after: GlobalPosition): boolean => position > after

// --- which streams and events are Mizan's ----------------------------------------

/** Checkpoints live in user streams of their own, one per reader (max count 1). */
export const checkpointStreamPrefix = "mizan-checkpoint-"
export const checkpointEventType = "CheckpointStored"

/**
 * Where a store's streams live on the server: every stream name starts with
 * the store's namespace (empty by default), so that stores (or test runs)
 * can share one server without seeing each other's events.
 */
export interface Namespace {
  readonly prefix: string
  /** The server's name for the port's stream. */
  readonly stream: (streamId: string) => string
  /** The server's name for a checkpoint's stream. */
  readonly checkpoint: (name: string) => string
  /** The port's stream id for a server stream name; undefined when the stream is not this store's. */
  readonly streamIdOf: (streamName: string) => string | undefined
}

export const namespaceOf = (prefix: string): Namespace => ({
  prefix,
  stream: (streamId) => `${prefix}${streamId}`,
  checkpoint: (name) => `${prefix}${checkpointStreamPrefix}${name}`,
  streamIdOf: (streamName) => (streamName.startsWith(prefix) ? streamName.slice(prefix.length) : undefined),
})

/**
 * Whether an event of `$all`, by the port's stream id, belongs to the port's
 * log: not a system event (its type or stream starts with `$`: metadata,
 * links, statistics, projections' output) and not a checkpoint.
 */
export const isLogEvent = (streamId: string, type: string): boolean =>
  !streamId.startsWith("$") && !type.startsWith("$") && !streamId.startsWith(checkpointStreamPrefix)

// --- events -------------------------------------------------------------------

/** KurrentDB event ids are UUIDs; the port lets callers choose ids. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isUuid = (id: string): boolean => uuidPattern.test(id)

/**
 * What Mizan keeps in an event's metadata. Correlation and causation use the
 * `$correlationId` and `$causationId` keys that KurrentDB's system
 * projections read.
 */
export type StoredMetadata = {
  readonly $correlationId?: string
  readonly $causationId?: string
  readonly schemaVersion: number
  /** When the store recorded it, ms since the epoch (the port's `recordedAt`, by Effect's Clock). */
  readonly recordedAt: number
}

export const storedMetadataOf = (event: NewEvent, recordedAt: number): StoredMetadata => ({
  ...withoutUndefined({ $correlationId: event.metadata?.correlationId }),
  ...withoutUndefined({ $causationId: event.metadata?.causationId }),
  schemaVersion: event.schemaVersion,
  recordedAt,
})

/** Event data as the client's JSON events carry it: any JSON value (the client stringifies it). */
export const jsonDataOf = (event: NewEvent): JSONType => (event.data ?? null) as JSONType

/** The fields of the client's recorded event this adapter reads. */
export interface ClientRecordedEvent {
  readonly streamId: string
  readonly id: string
  readonly revision: bigint
  readonly type: string
  readonly isJson: boolean
  readonly data: unknown
  readonly metadata: unknown
  readonly position?: { readonly commit: bigint; readonly prepare: bigint } | undefined
}

const isStoredMetadata = (metadata: unknown): metadata is StoredMetadata =>
  typeof metadata === "object" &&
  metadata !== null &&
  typeof (metadata as StoredMetadata).schemaVersion === "number" &&
  typeof (metadata as StoredMetadata).recordedAt === "number"

/** A recorded event as the port returns it (in the port's `streamId`), or why it is not one of Mizan's. */
export const toRecordedEvent = (event: ClientRecordedEvent, streamId: string): Result.Result<RecordedEvent, string> => {
  const where = `${event.streamId}@${event.revision}`
  if (!event.isJson) return Result.fail(`${where} is not a JSON event`)
  if (event.position === undefined)
    return Result.fail(`${where} came without a position (KurrentDB before 22.6 does not report them)`)
  if (!isStoredMetadata(event.metadata)) return Result.fail(`${where} has no Mizan metadata`)
  const { $correlationId, $causationId, schemaVersion, recordedAt } = event.metadata
  return Result.succeed({
    id: event.id,
    streamId,
    type: event.type,
    schemaVersion,
    data: event.data,
    metadata: {
      ...withoutUndefined({ correlationId: $correlationId }),
      ...withoutUndefined({ causationId: $causationId }),
      recordedAt,
    },
    streamVersion: versionOfRevision(event.revision),
    globalPosition: event.position.commit,
  })
}

// --- errors -------------------------------------------------------------------

/** The fields of the client's errors this adapter reads: `type` on CommandErrors, a gRPC `code` on others. */
interface ClientFailure {
  readonly type?: unknown
  readonly code?: unknown
  readonly message?: unknown
  readonly actualState?: unknown
}

const asFailure = (cause: unknown): ClientFailure => (typeof cause === "object" && cause !== null ? cause : {})

/** The gRPC status INVALID_ARGUMENT. */
const grpcInvalidArgument = 3

const reasonByType: Readonly<Record<string, StoreErrorReason>> = {
  unavailable: "Unavailable",
  "deadline-exceeded": "Unavailable",
  timeout: "Unavailable",
  cancelled: "Unavailable",
  "not-leader": "Unavailable",
  "access-denied": "Unavailable",
  "stream-deleted": "Corrupt",
  "stream-tombstoned": "Corrupt",
  "invalid-argument": "InvalidRequest",
  "maximum-append-size-exceeded": "InvalidRequest",
  "append-record-size-exceeded": "InvalidRequest",
  "transaction-max-size-exceeded": "InvalidRequest",
}

/** The port's reason for a client failure; anything unrecognised means the store could not do it now. */
export const reasonOf = (cause: unknown): StoreErrorReason => {
  const { type, code } = asFailure(cause)
  if (typeof type === "string") return reasonByType[type] ?? "Unavailable"
  // Errors the client passes on unconverted carry a gRPC status: 14 UNAVAILABLE, 4 DEADLINE_EXCEEDED, ...
  return code === grpcInvalidArgument ? "InvalidRequest" : "Unavailable"
}

const isWrongExpectedVersion = (cause: unknown): boolean => asFailure(cause).type === "wrong-expected-version"

/**
 * An append's failure in the port's terms: the client's
 * WrongExpectedVersionError is a VersionConflict naming the stream's actual
 * version; anything else a StoreError naming the action.
 */
export const appendFailure =
  (streamId: string, expected: ExpectedVersion) =>
  (cause: unknown): VersionConflict | StoreError => {
    if (isWrongExpectedVersion(cause)) {
      const actualState = asFailure(cause).actualState
      const actual =
        actualState === NO_STREAM || typeof actualState === "bigint" ? versionOfStreamState(actualState) : 0
      return new VersionConflict({ streamId, expected, actual })
    }
    return storeErrorFrom(`appending to ${streamId}`)(cause)
  }

export const storeErrorFrom =
  (action: string) =>
  (cause: unknown): StoreError => {
    if (cause instanceof StoreError) return cause
    const { message } = asFailure(cause)
    return new StoreError({
      reason: reasonOf(cause),
      detail: `${action}: ${typeof message === "string" ? message : String(cause)}`,
      cause,
    })
  }

/** The client's StreamNotFoundError: the port reads an unknown stream as empty. */
export const isStreamNotFound = (cause: unknown): boolean => asFailure(cause).type === "stream-not-found"
