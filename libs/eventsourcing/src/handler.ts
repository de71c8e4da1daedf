import { Effect, Predicate, Result } from "effect"
import type { EventCodec } from "./codec.ts"
import type { Decider } from "./decider.ts"
import { EventStore, type EventStoreShape } from "./EventStore.ts"
import {
  type EventMetadata,
  type RecordedEvent,
  StoreError,
  type StreamAppend,
  type VersionConflict,
} from "./events.ts"
import { wrapperSpan } from "./instrumented.ts"
import { CommandLocks } from "./locks.ts"

/** A decider with the codec that writes and reads its events. */
export interface Aggregate<Command, Event, State, Error> extends Decider<Command, Event, State, Error> {
  readonly codec: EventCodec<Event>
}

export interface Loaded<State> {
  readonly state: State
  /** The stream's version: how many events it holds. 0 for a stream never written. */
  readonly streamVersion: number
}

export interface Handled<Event, State> extends Loaded<State> {
  /** The events this command decided and the store recorded (empty when it changed nothing). */
  readonly events: ReadonlyArray<Event>
  readonly records: ReadonlyArray<RecordedEvent>
}

export const readPageSizeEvents = 1_000
/** How many times a command is decided again after losing a race for its stream. */
export const versionConflictRetriesMax = 8

/** A recorded event of `aggregate`'s, decoded; a record it cannot read is an Undecodable store error naming it. */
export const decodeRecord = <Event>(
  codec: EventCodec<Event>,
  record: RecordedEvent,
): Effect.Effect<Event, StoreError> => {
  const decoded = codec.decode(record)
  return Result.isSuccess(decoded)
    ? Effect.succeed(decoded.success)
    : Effect.fail(
        new StoreError({
          reason: "Undecodable",
          detail: `${record.streamId}@${record.streamVersion}: ${decoded.failure}`,
        }),
      )
}

export interface LoadOptions {
  /**
   * Fold only up to this version: the state as it was just after that event
   * (what a notification of that status change shows). The whole stream otherwise.
   */
  readonly upToVersion?: number
}

/** Reads and folds a stream, whole or up to a version. */
export const loadAggregate = Effect.fnUntraced(function* <Command, Event, State, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  options: LoadOptions = {},
) {
  const store = yield* EventStore
  const upToVersion = options.upToVersion ?? Number.POSITIVE_INFINITY
  let state = aggregate.initialState
  let streamVersion = 0
  while (true) {
    const maxCount = Math.min(readPageSizeEvents, upToVersion - streamVersion)
    if (maxCount <= 0) return { state, streamVersion }
    const page = yield* store.readStream(streamId, { fromVersion: streamVersion + 1, maxCount })
    for (const record of page) {
      state = aggregate.evolve(state, yield* decodeRecord(aggregate.codec, record))
      streamVersion = record.streamVersion
    }
    if (page.length < maxCount) return { state, streamVersion }
  }
})

/**
 * Appends what a command decided on `loaded` at its version, with the
 * `alongside` parts of other streams in the same `appendMany`, and answers
 * the state after it.
 */
const appendDecided = <Command, Event, State, Error>(
  store: EventStoreShape,
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  { state, streamVersion }: Loaded<State>,
  events: ReadonlyArray<Event>,
  metadata: EventMetadata | undefined,
  alongside: ReadonlyArray<StreamAppend> = [],
): Effect.Effect<Handled<Event, State>, StoreError | VersionConflict> => {
  if (events.length === 0) return Effect.succeed({ state, streamVersion, events, records: [] })
  const encoded = events.map((event) =>
    metadata === undefined ? aggregate.codec.encode(event) : { ...aggregate.codec.encode(event), metadata },
  )
  const expected = streamVersion === 0 ? "no_stream" : streamVersion
  return Effect.flatMap(
    alongside.length === 0
      ? store.append(streamId, encoded, expected)
      : Effect.map(store.appendMany([{ streamId, events: encoded, expected }, ...alongside]), (results) => results[0]!),
    (appended) =>
      // The store promised this version; a mismatch means the adapter is broken, not the request.
      appended.streamVersion !== streamVersion + events.length
        ? Effect.die(
            new globalThis.Error(
              `${streamId}: appended ${events.length} at ${streamVersion}, store says ${appended.streamVersion}`,
            ),
          )
        : Effect.succeed({
            state: events.reduce(aggregate.evolve, state),
            streamVersion: appended.streamVersion,
            events,
            records: appended.records,
          }),
  )
}

/**
 * A command handler: runs `command` on the stream `streamId` of `aggregate`
 * and answers what it decided and the state after it. The two below give the
 * same answer; they differ only in whether they read the stream first.
 */
export type CommandHandler = <Command, Event, State, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  command: Command,
  metadata?: EventMetadata,
) => Effect.Effect<Handled<Event, State>, Error | StoreError | VersionConflict, EventStore>

/**
 * The command handler: read the stream, fold, decide, append with the
 * expected version. Commands on one stream take turns within this process
 * (`CommandLocks`); when another process appended first, decide again on
 * the new state, at most `versionConflictRetriesMax` times. A command that decides
 * nothing (a repeat) appends nothing and answers the current state.
 */
export const handleCommand: CommandHandler = (aggregate, streamId, command, metadata) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const locks = yield* CommandLocks
    const attempt = Effect.gen(function* () {
      const { state, streamVersion } = yield* loadAggregate(aggregate, streamId)
      const decided = aggregate.decide(command, state)
      if (Result.isFailure(decided)) return yield* Effect.fail(decided.failure)
      return yield* appendDecided(store, aggregate, streamId, { state, streamVersion }, decided.success, metadata)
    })
    return yield* locks.withLock(streamId, attempt).pipe(
      Effect.retry({
        times: versionConflictRetriesMax,
        // Only a lost race is decided again; the decider's own refusals and store failures are answers.
        while: Predicate.isTagged("VersionConflict"),
      }),
    )
  }).pipe(Effect.withSpan("EventSourcing.handleCommand", { attributes: { streamId } }, wrapperSpan))

/**
 * `handleCommand` for a command that nearly always opens its stream, such as
 * a create order under a merchant order number never used before: it decides
 * on the empty state and appends expecting `no_stream`, without reading the
 * stream first, which saves a read per create. When that is not the case
 * after all (the stream exists: a repeated create; or the empty state refuses
 * the command, which the real state might not), the command is handled by
 * `handleCommand`, read, decide and append, so the answer is the same either
 * way: the guess only decides whether the read happens.
 *
 * `alongside`: parts of other streams appended in the same `appendMany` as
 * the new stream's events, when the guess holds (an order's number in its
 * index, say), so that both take one write and one wait for durability.
 * Nothing of them is written when it does not: a caller that needs them
 * then (a repeat, `written` false) appends them itself.
 */
export const handleCommandOnNewStream = <Command, Event, State, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  command: Command,
  metadata?: EventMetadata,
  alongside: ReadonlyArray<StreamAppend> = [],
): Effect.Effect<
  Handled<Event, State> & { readonly alongsideWritten: boolean },
  Error | StoreError | VersionConflict,
  EventStore
> =>
  Effect.gen(function* () {
    const decided = aggregate.decide(command, aggregate.initialState)
    // Built only when the guess fails: a create that opens its stream (nearly all) never reads it.
    const handleAlone = () =>
      Effect.map(handleCommand(aggregate, streamId, command, metadata), (handled) => ({
        ...handled,
        alongsideWritten: false,
      }))
    if (Result.isFailure(decided) || decided.success.length === 0) return yield* handleAlone()
    const store = yield* EventStore
    const empty = { state: aggregate.initialState, streamVersion: 0 }
    // No turn in the stream's lock: the append expects no stream, so the store itself refuses it when any
    // other command got there first, and the command is then handled in turn (handleAlone takes the lock).
    // Taking the lock here would only cost every create a semaphore of its own.
    return yield* Effect.map(
      appendDecided(store, aggregate, streamId, empty, decided.success, metadata, alongside),
      (handled) => ({ ...handled, alongsideWritten: alongside.length > 0 }),
    ).pipe(Effect.catchTag("VersionConflict", handleAlone))
    // One span name for both handlers, so a trace reads the same; the attribute tells them apart (a fallback
    // shows as handleCommand's span inside this one).
  }).pipe(Effect.withSpan("EventSourcing.handleCommand", { attributes: { streamId, newStream: true } }, wrapperSpan))
