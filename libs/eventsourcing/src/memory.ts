import { randomUUID } from "node:crypto"
import { Clock, Effect, Layer } from "effect"
import { chainGenesis, chainHashOf, type SignedHead } from "./chain/chain.ts"
import { EventStore, type EventStoreShape, placeOnly } from "./EventStore.ts"
import {
  type AppendResult,
  type ExpectedVersion,
  type GlobalPosition,
  logStart,
  type RecordedEvent,
  StoreError,
  type StreamAppend,
  VersionConflict,
} from "./events.ts"
import { AppendSignal, followByReading } from "./follow.ts"

/** Whether a stream at `actual` satisfies what an append expected. */
export const versionMatches = (expected: ExpectedVersion, actual: number): boolean =>
  expected === "any" || (expected === "no_stream" ? actual === 0 : expected === actual)

/**
 * What no adapter may accept in an append request, so that every adapter
 * answers alike; undefined for a request that may go on. For an adapter that
 * checks it inside a callback of its own (the SQLite store).
 */
export const appendRequestProblem = (
  streamId: string,
  eventCount: number,
  expected: ExpectedVersion,
): StoreError | undefined => {
  if (streamId.length === 0)
    return new StoreError({ reason: "InvalidRequest", detail: "a stream id must not be empty" })
  if (eventCount === 0)
    return new StoreError({ reason: "InvalidRequest", detail: "an append needs at least one event" })
  if (typeof expected === "number" && (!Number.isSafeInteger(expected) || expected < 0))
    return new StoreError({ reason: "InvalidRequest", detail: `expected version ${expected} is not a version` })
  return undefined
}

/** `appendRequestProblem` for an `appendMany`: of each part, and no part at all or a stream named twice. */
export const appendManyRequestProblem = (parts: ReadonlyArray<StreamAppend>): StoreError | undefined => {
  if (parts.length === 0)
    return new StoreError({ reason: "InvalidRequest", detail: "an appendMany needs at least one part" })
  // A single append (most of them) needs no set to find a stream named twice.
  const streams = parts.length > 1 ? new Set<string>() : undefined
  for (const part of parts) {
    const problem = appendRequestProblem(part.streamId, part.events.length, part.expected)
    if (problem !== undefined) return problem
    if (streams === undefined) continue
    if (streams.has(part.streamId))
      return new StoreError({
        reason: "InvalidRequest",
        detail: `an appendMany names ${part.streamId} twice; one part a stream`,
      })
    streams.add(part.streamId)
  }
  return undefined
}

/**
 * `appendMany` for an adapter that cannot commit several streams in one
 * transaction: checks the request as every adapter does, then appends the
 * parts one after another, stopping at the first that fails.
 */
export const appendInTurn =
  (append: EventStoreShape["append"]): EventStoreShape["appendMany"] =>
  (parts) => {
    const problem = appendManyRequestProblem(parts)
    return problem === undefined
      ? Effect.forEach(parts, (part) => append(part.streamId, part.events, part.expected))
      : Effect.fail(problem)
  }

/** Refuses what no adapter may accept (`appendRequestProblem`), as an Effect. */
export const checkAppendRequest = (streamId: string, eventCount: number, expected: ExpectedVersion) => {
  const problem = appendRequestProblem(streamId, eventCount, expected)
  return problem === undefined ? Effect.void : Effect.fail(problem)
}

/**
 * The in-memory EventStore: the reference adapter, for tests and for
 * property runs over many random histories. Appends are synchronous, so each
 * is atomic; nothing survives the process.
 */
export const makeMemoryEventStore = (): EventStoreShape => {
  const log: Array<RecordedEvent> = []
  const streams = new Map<string, Array<RecordedEvent>>()
  const checkpoints = new Map<string, GlobalPosition>()
  // Kept sorted by count: the signer adds them in that order, and a repeated count keeps the first.
  const heads: Array<SignedHead> = []
  const signal = new AppendSignal()

  const readAll: EventStoreShape["readAll"] = ({ after, maxCount, wholeEventsOf }) =>
    Effect.sync(() => {
      // Positions are 1..n, so the event after `after` sits at index `after`.
      const from = after < 0n ? 0 : Number(after)
      const page = log.slice(from, from + maxCount)
      return wholeEventsOf === undefined
        ? page
        : page.map((record) => (wholeEventsOf(record.streamId) ? record : placeOnly(record)))
    })

  /** Records one part after its stream's last event; its version was checked. */
  const record = ({ streamId, events }: StreamAppend, recordedAt: number): AppendResult => {
    const stream = streams.get(streamId) ?? []
    let previous = stream.at(-1)?.chainHash ?? chainGenesis
    const records = events.map((event, i): RecordedEvent => {
      const fields = {
        id: event.id ?? randomUUID(),
        streamId,
        type: event.type,
        schemaVersion: event.schemaVersion,
        data: structuredClone(event.data),
        metadata: { ...event.metadata, recordedAt },
        streamVersion: stream.length + i + 1,
      }
      previous = chainHashOf(previous, fields)
      return { ...fields, globalPosition: BigInt(log.length + i + 1), chainHash: previous }
    })
    stream.push(...records)
    streams.set(streamId, stream)
    log.push(...records)
    return { streamVersion: stream.length, records }
  }

  /** Every part or none: each part's version is checked before any is recorded. */
  const appendMany: EventStoreShape["appendMany"] = (parts) => {
    const problem = appendManyRequestProblem(parts)
    if (problem !== undefined) return Effect.fail(problem)
    return Effect.flatMap(Clock.currentTimeMillis, (recordedAt) => {
      for (const { streamId, expected } of parts) {
        const actual = streams.get(streamId)?.length ?? 0
        if (!versionMatches(expected, actual)) return Effect.fail(new VersionConflict({ streamId, expected, actual }))
      }
      const results = parts.map((part) => record(part, recordedAt))
      signal.notify()
      return Effect.succeed(results)
    })
  }

  return {
    append: (streamId, events, expected) =>
      Effect.map(appendMany([{ streamId, events, expected }]), ([result]) => result!),
    appendMany,
    readStream: (streamId, options) =>
      Effect.sync(() => {
        const from = Math.max((options?.fromVersion ?? 1) - 1, 0)
        const stream = streams.get(streamId) ?? []
        return stream.slice(from, options?.maxCount === undefined ? undefined : from + options.maxCount)
      }),
    readAll,
    follow: followByReading(readAll, signal, 1_000),
    readCheckpoint: (name) => Effect.sync(() => checkpoints.get(name) ?? logStart),
    storeCheckpoint: (name, position) => Effect.sync(() => void checkpoints.set(name, position)),
    storeSignedHead: (head) =>
      Effect.sync(() => {
        if (heads.some((kept) => kept.count === head.count)) return
        heads.push(head)
        heads.sort((a, b) => a.count - b.count)
      }),
    readSignedHeads: ({ afterCount, maxCount }) =>
      Effect.sync(() => heads.filter((head) => head.count > afterCount).slice(0, maxCount)),
    readLastSignedHead: Effect.sync(() => heads.at(-1)),
  }
}

export const layerMemory: Layer.Layer<EventStore> = Layer.sync(EventStore, makeMemoryEventStore)
