import { Context, type Effect, type Stream } from "effect"
import type { SignedHead } from "./chain/chain.ts"
import type {
  AppendResult,
  ExpectedVersion,
  GlobalPosition,
  NewEvent,
  RecordedEvent,
  StoreError,
  StreamAppend,
  VersionConflict,
} from "./events.ts"

export interface ReadStreamOptions {
  /** The first stream version to return (1 is the first event). */
  readonly fromVersion?: number
  readonly maxCount?: number
}

export interface ReadAllOptions {
  /** Return events whose global position is after this one (`logStart` for all). */
  readonly after: GlobalPosition
  readonly maxCount: number
  /**
   * The streams whose events the page holds whole; every other event comes
   * as its place alone (`placeOnly`), its data and metadata never parsed.
   * For a reader that folds a share of the streams yet needs every event's
   * place in the log (the audit's workers: an append ends where another
   * stream's event starts, and a replay's progress counts every event).
   * Every stream's events whole when absent.
   */
  readonly wholeEventsOf?: (streamId: string) => boolean
}

/**
 * An event of a stream a read's `wholeEventsOf` refuses, as every adapter
 * gives it: its id, stream, type, schema version, versions, position and
 * chain hash as stored, `data` undefined and `metadata` holding
 * `recordedAt` alone. An adapter that reads its rows as text builds it
 * without parsing them; one whose client parses every event (KurrentDB's)
 * makes it of the whole record with this.
 */
export const placeOnly = (record: RecordedEvent): RecordedEvent => {
  const { data: _data, metadata, ...place } = record
  return { ...place, data: undefined, metadata: { recordedAt: metadata.recordedAt } }
}

export interface ReadSignedHeadsOptions {
  /** Return heads whose count is above this one (0 for all). */
  readonly afterCount: number
  readonly maxCount: number
}

export interface FollowOptions {
  /** How many events one read of the log returns at most. */
  readonly pageSizeEvents?: number
}

/**
 * The EventStore port. One stream per aggregate instance; the expected
 * version check of `append` is the only lock in Mizan
 * (docs/architecture.md#consistency). Every adapter passes the contract suite in
 * `@mizan/eventsourcing/testing`.
 */
export class EventStore extends Context.Service<
  EventStore,
  {
    /** Appends events atomically, if the stream is at the expected version. */
    readonly append: (
      streamId: string,
      events: ReadonlyArray<NewEvent>,
      expected: ExpectedVersion,
    ) => Effect.Effect<AppendResult, VersionConflict | StoreError>
    /**
     * Appends to several streams in one write, each part checked against its
     * own expected version, and answers each part's result in their order;
     * the parts' events follow one another in the log in that order. Where
     * the adapter commits many streams in one transaction (memory, SQLite,
     * PostgreSQL) it is atomic: every part or none, and one wait for
     * durability; a part expecting "any" is retried as a single append is.
     * Where it cannot (KurrentDB: `appendInTurn`), the parts are appended
     * one after another, and a failure leaves the parts before it written,
     * so a caller heals that cut as it heals a crash between two appends
     * (the order flows' retries do). A stream named twice is refused.
     */
    readonly appendMany: (
      parts: ReadonlyArray<StreamAppend>,
    ) => Effect.Effect<ReadonlyArray<AppendResult>, VersionConflict | StoreError>
    /** Reads a stream forward; an unknown stream reads as empty. */
    readonly readStream: (
      streamId: string,
      options?: ReadStreamOptions,
    ) => Effect.Effect<ReadonlyArray<RecordedEvent>, StoreError>
    /** Reads one page of the global log forward. Readers never see a gap fill in behind them. */
    readonly readAll: (options: ReadAllOptions) => Effect.Effect<ReadonlyArray<RecordedEvent>, StoreError>
    /** Every event after `after`, then every event appended later, without end. */
    readonly follow: (after: GlobalPosition, options?: FollowOptions) => Stream.Stream<RecordedEvent, StoreError>
    /** A named reader's stored position (`logStart` when it has none). */
    readonly readCheckpoint: (name: string) => Effect.Effect<GlobalPosition, StoreError>
    readonly storeCheckpoint: (name: string, position: GlobalPosition) => Effect.Effect<void, StoreError>
    /**
     * Keeps a signed head of the log (chain.ts), kept apart from the log
     * itself so that cutting off the log's tail leaves the heads that
     * covered it. A second head with the same count keeps the first.
     */
    readonly storeSignedHead: (head: SignedHead) => Effect.Effect<void, StoreError>
    /** One page of the signed heads, by count ascending. */
    readonly readSignedHeads: (options: ReadSignedHeadsOptions) => Effect.Effect<ReadonlyArray<SignedHead>, StoreError>
    /** The head with the highest count, if any: where the signer resumes. */
    readonly readLastSignedHead: Effect.Effect<SignedHead | undefined, StoreError>
  }
>()("@mizan/eventsourcing/EventStore") {}

export type EventStoreShape = EventStore["Service"]
