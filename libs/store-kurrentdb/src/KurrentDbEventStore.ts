/**
 * The KurrentDB (EventStoreDB) EventStore: a thin adapter over
 * `@kurrent/kurrentdb-client`, following its documented API. No KurrentDB
 * server can run where this was written: README.md lists what was checked
 * and what was not.
 */

import { randomUUID } from "node:crypto"
import {
  BACKWARDS,
  END,
  excludeSystemEvents,
  jsonEvent,
  KurrentDBClient,
  streamNameFilter,
} from "@kurrent/kurrentdb-client"
import {
  AppendSignal,
  appendInTurn,
  checkAppendRequest,
  EventStore,
  type EventStoreShape,
  type ExpectedVersion,
  followByReading,
  type GlobalPosition,
  logStart,
  type NewEvent,
  placeOnly,
  type ReadAllOptions,
  type RecordedEvent,
  StoreError,
  VersionConflict,
} from "@mizan/eventsourcing"
import { withoutUndefined } from "@mizan/kernel"
import { Clock, Effect, Layer, Result } from "effect"
import {
  appendFailure,
  type ClientRecordedEvent,
  checkpointEventType,
  isAfter,
  isLogEvent,
  isStreamNotFound,
  isUuid,
  jsonDataOf,
  type Namespace,
  namespaceOf,
  readAllStart,
  revisionOfVersion,
  storedMetadataOf,
  storeErrorFrom,
  streamStateFor,
  toRecordedEvent,
  versionOfRevision,
} from "./mapping.ts"

export interface KurrentDbStoreOptions {
  /**
   * A prefix for every stream this store writes and reads (default none):
   * stores sharing one server under different namespaces do not see each
   * other's events. Must not start with `$` (system streams).
   */
  readonly namespace?: string
  /** How often an idle follower reads `$all` again for appends by other processes. Default 500. */
  readonly pollIntervalMs?: number
}

const pollIntervalMsDefault = 500

/** A stream nobody writes: reading it at open proves the server answers. */
const connectionCheckStream = "mizan-connection-check"

const collect = async <A>(iterable: AsyncIterable<A>): Promise<Array<A>> => {
  const items: Array<A> = []
  for await (const item of iterable) items.push(item)
  return items
}

const corrupt = (detail: string) => new StoreError({ reason: "Corrupt", detail })

/** What the port's operations work with: the open client, the store's namespace, and the signal its own appends raise. */
interface Connection {
  readonly client: KurrentDBClient
  readonly namespace: Namespace
  readonly signal: AppendSignal
}

const decode = (event: ClientRecordedEvent, streamId: string) =>
  Result.match(toRecordedEvent(event, streamId), {
    onSuccess: (recorded) => Effect.succeed(recorded),
    onFailure: (why) => Effect.fail(corrupt(why)),
  })

/** Reads a stream forward from a version; an unknown stream reads as empty. */
const readStreamFrom = Effect.fn("StoreKurrentdb.readStreamFrom")(function* (
  { client, namespace }: Connection,
  streamId: string,
  fromVersion: number,
  maxCount?: number,
) {
  if (maxCount !== undefined && maxCount <= 0) return []
  const resolved = yield* Effect.tryPromise({
    try: () =>
      collect(
        client.readStream(namespace.stream(streamId), {
          fromRevision: revisionOfVersion(Math.max(fromVersion, 1)),
          ...withoutUndefined({ maxCount }),
          // Read-your-writes: a follower node may not have the latest append yet.
          requiresLeader: true,
        }),
      ).catch((cause: unknown) => {
        if (isStreamNotFound(cause)) return []
        throw cause
      }),
    catch: storeErrorFrom(`reading ${streamId}`),
  })
  const records: Array<RecordedEvent> = []
  for (const { event } of resolved) if (event !== undefined) records.push(yield* decode(event, streamId))
  return records
})

/** The events as the client proposes them: a UUID each (the caller's, or a new one), data and metadata as stored. */
const proposedEvents = (events: ReadonlyArray<NewEvent>, recordedAt: number) =>
  events.map((event) =>
    jsonEvent({
      id: event.id ?? randomUUID(),
      type: event.type,
      data: jsonDataOf(event),
      metadata: storedMetadataOf(event, recordedAt),
    }),
  )

const append = Effect.fnUntraced(function* (
  connection: Connection,
  streamId: string,
  events: ReadonlyArray<NewEvent>,
  expected: ExpectedVersion,
) {
  yield* checkAppendRequest(streamId, events.length, expected)
  const chosenId = events.find((event) => event.id !== undefined && !isUuid(event.id))?.id
  if (chosenId !== undefined)
    return yield* new StoreError({ reason: "InvalidRequest", detail: `KurrentDB event ids are UUIDs: ${chosenId}` })
  const proposed = proposedEvents(events, yield* Clock.currentTimeMillis)
  const result = yield* Effect.tryPromise({
    try: () =>
      connection.client.appendToStream(connection.namespace.stream(streamId), proposed, {
        streamState: streamStateFor(expected),
      }),
    catch: appendFailure(streamId, expected),
  })
  // With `throwOnAppendFailure=false` in the connection string the client answers a lost race instead of throwing it.
  if (!result.success)
    return yield* new VersionConflict({ streamId, expected, actual: versionOfRevision(result.nextExpectedRevision) })
  connection.signal.notify()
  // The append answers the stream's last revision and one log position, not each event's:
  // the events are read back by revision to learn their positions.
  const streamVersion = versionOfRevision(result.nextExpectedRevision)
  const records = yield* readStreamFrom(connection, streamId, streamVersion - events.length + 1, events.length)
  const idsOf = (items: ReadonlyArray<{ readonly id: string }>) => items.map((item) => item.id.toLowerCase()).join()
  if (idsOf(records) !== idsOf(proposed))
    return yield* corrupt(
      `${streamId}: the events read back at versions up to ${streamVersion} are not the ones appended`,
    )
  return { streamVersion, records }
})

/**
 * One page of the log. Checkpoint events are dropped here, after the
 * server's system-event filter, so a page can come back short: reading
 * goes on until the page is full or the log ends, so that a page of
 * nothing always means "caught up". The client parses every event it
 * reads, so `wholeEventsOf` is applied after it: the events of the streams
 * it refuses come as their places, as the port promises, but nothing is saved.
 */
const readPage = async (
  { client, namespace }: Connection,
  { after, maxCount, wholeEventsOf }: ReadAllOptions,
): Promise<Array<RecordedEvent>> => {
  const filter = namespace.prefix === "" ? excludeSystemEvents() : streamNameFilter({ prefixes: [namespace.prefix] })
  const page: Array<RecordedEvent> = []
  let cursor: GlobalPosition = after
  while (page.length < maxCount) {
    // The start position is inclusive: one more than needed, since the event at the cursor comes back.
    const requested = maxCount - page.length + 1
    const batch = await collect(client.readAll({ fromPosition: readAllStart(cursor), maxCount: requested, filter }))
    const cursorBefore = cursor
    for (const { event } of batch) {
      if (event === undefined || !isAfter(event.position.commit, cursor)) continue
      cursor = event.position.commit
      const streamId = namespace.streamIdOf(event.streamId)
      if (streamId === undefined || !isLogEvent(streamId, event.type)) continue
      const recorded = toRecordedEvent(event, streamId)
      if (Result.isFailure(recorded)) throw corrupt(recorded.failure)
      if (page.length < maxCount)
        page.push(
          wholeEventsOf === undefined || wholeEventsOf(streamId) ? recorded.success : placeOnly(recorded.success),
        )
    }
    if (batch.length < requested || cursor === cursorBefore) break
  }
  return page
}

const readAll = (connection: Connection, options: ReadAllOptions) =>
  Effect.tryPromise({
    try: () => readPage(connection, options),
    catch: storeErrorFrom(`reading the log after ${options.after}`),
  })

/** A checkpoint's position: the last event of its stream; the log's start when it has none. */
const readCheckpoint = ({ client, namespace }: Connection, name: string) =>
  Effect.tryPromise({
    try: async () => {
      const [last] = await collect(
        client.readStream(namespace.checkpoint(name), {
          direction: BACKWARDS,
          fromRevision: END,
          maxCount: 1,
          requiresLeader: true,
        }),
      ).catch((cause: unknown) => {
        if (isStreamNotFound(cause)) return []
        throw cause
      })
      const data = last?.event?.data as { readonly position?: unknown } | undefined
      if (data === undefined) return logStart
      if (typeof data.position !== "string") throw corrupt(`checkpoint ${name} holds no position`)
      return BigInt(data.position)
    },
    catch: storeErrorFrom(`reading checkpoint ${name}`),
  })

const storeCheckpoint = ({ client, namespace }: Connection, name: string, position: GlobalPosition) =>
  Effect.tryPromise({
    try: async () => {
      const stream = namespace.checkpoint(name)
      const result = await client.appendToStream(
        stream,
        jsonEvent({ type: checkpointEventType, data: { position: position.toString() } }),
      )
      // Only the latest checkpoint matters: on the stream's first write, let the server scavenge the rest.
      if (result.nextExpectedRevision === 0n) await client.setStreamMetadata(stream, { maxCount: 1 })
    },
    catch: storeErrorFrom(`storing checkpoint ${name}`),
  })

/** The port over an open client. Exported for the adapter's own tests. */
export const storeOn = (client: KurrentDBClient, namespace: Namespace, pollIntervalMs: number): EventStoreShape => {
  const connection: Connection = { client, namespace, signal: new AppendSignal() }
  const appendHere: EventStoreShape["append"] = (streamId, events, expected) =>
    append(connection, streamId, events, expected)
  const readAllHere: EventStoreShape["readAll"] = (options) => readAll(connection, options)
  return {
    append: appendHere,
    // The client's multiStreamAppend needs a 25.1 server and answers no event's position: in turn, as appended alone.
    appendMany: appendInTurn(appendHere),
    readStream: (streamId, options) =>
      readStreamFrom(connection, streamId, options?.fromVersion ?? 1, options?.maxCount),
    readAll: readAllHere,
    follow: followByReading(readAllHere, connection.signal, pollIntervalMs),
    readCheckpoint: (name) => readCheckpoint(connection, name),
    storeCheckpoint: (name, position) => storeCheckpoint(connection, name, position),
    // No chain and no signed heads here (README.md, The tamper-evident log): refused, never pretended.
    storeSignedHead: () => noTamperEvidence,
    readSignedHeads: () => noTamperEvidence,
    readLastSignedHead: noTamperEvidence,
  }
}

const noTamperEvidence = Effect.fail(
  new StoreError({
    reason: "InvalidRequest",
    detail: "the KurrentDB store keeps no chain hashes and no signed heads (libs/store-kurrentdb/README.md)",
  }),
)

export const makeKurrentDbEventStore = Effect.fnUntraced(function* (
  connectionString: string,
  options: KurrentDbStoreOptions = {},
) {
  const prefix = options.namespace ?? ""
  if (prefix.startsWith("$"))
    return yield* new StoreError({ reason: "InvalidRequest", detail: "a namespace must not start with $" })
  const client = yield* Effect.acquireRelease(
    Effect.try({
      try: () => KurrentDBClient.connectionString(connectionString),
      // The connection string may hold a password: it is not repeated here.
      catch: () =>
        new StoreError({ reason: "InvalidRequest", detail: "the KurrentDB connection string does not parse" }),
    }),
    (client) => Effect.promise(() => client.dispose()),
  )
  const store = storeOn(client, namespaceOf(prefix), options.pollIntervalMs ?? pollIntervalMsDefault)
  // Fail at open, as the other stores do, rather than at the first command.
  yield* store.readStream(connectionCheckStream, { maxCount: 1 })
  return store
})

export const layerKurrentDb = (
  connectionString: string,
  options?: KurrentDbStoreOptions,
): Layer.Layer<EventStore, StoreError> => Layer.effect(EventStore, makeKurrentDbEventStore(connectionString, options))
