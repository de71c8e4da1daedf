/**
 * `export` and `import`: the whole log as NDJSON (ndjson.ts), streamed both
 * ways, so that a history can move between stores (the embedded SQLite file
 * to PostgreSQL and back) and be audited offline. Neither ever holds the log
 * in memory: export writes one page at a time; import reads the file twice,
 * line by line.
 *
 * Import checks the whole file before it writes anything (first pass):
 * every line parses; global positions increase; every event decodes with
 * its aggregate's codec (upcasters included); each stream's versions
 * follow on from where the target store's stream stands; the end line is
 * there and counts the events. A file that breaks any of these is refused
 * with the line that breaks it, and the target is left untouched. Memory:
 * the next version of every stream of the file, one Map entry each.
 *
 * Then it writes (second pass), each source append again as one append
 * (consecutive lines of one stream with one recorded time: `endsAppend`),
 * with the expected version the first pass established, its ids,
 * correlation ids and recorded time kept (the store's Clock is stopped at
 * the event's recordedAt). Global positions are the target's own.
 */
import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import {
  EventStore,
  type EventStoreShape,
  logStart,
  type NewEvent,
  type RecordedEvent,
  type StoreError,
} from "@mizan/eventsourcing"
import { Clock, Effect, Result } from "effect"
import { fixedClock } from "./fixedClock.ts"
import { type ExportedEvent, endLine, exportLine, parseLine } from "./ndjson.ts"
import { type AuditedAggregate, aggregateOf, registry } from "./registry.ts"
import { endsAppend, replayPageSizeEventsDefault } from "./replay.ts"
import { AuditError } from "./stores.ts"

/** Writes one chunk of text; fails when the destination does. */
export type WriteChunk = (text: string) => Effect.Effect<void, AuditError>

/** A chunk writer for a Node stream: each chunk waits until the stream has taken it (backpressure). */
export const chunkWriter =
  (out: NodeJS.WritableStream, name: string): WriteChunk =>
  (text) =>
    Effect.callback<void, AuditError>((resume) => {
      out.write(text, (error) =>
        resume(
          error === null || error === undefined
            ? Effect.void
            : Effect.fail(new AuditError({ detail: `cannot write ${name}: ${error.message}` })),
        ),
      )
    })

export interface ExportOptions {
  readonly pageSizeEvents?: number
  readonly onProgress?: (eventsWritten: number) => void
}

/** Writes the store's whole log as NDJSON, one page at a time; answers the number of events. */
export const exportLog = (
  write: WriteChunk,
  options: ExportOptions = {},
): Effect.Effect<number, StoreError | AuditError, EventStore> =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const maxCount = options.pageSizeEvents ?? replayPageSizeEventsDefault
    let after = logStart
    let events = 0
    while (true) {
      const page = yield* store.readAll({ after, maxCount })
      if (page.length === 0) break
      yield* write(`${page.map(exportLine).join("\n")}\n`)
      events += page.length
      after = page[page.length - 1]!.globalPosition
      options.onProgress?.(events)
    }
    yield* write(`${endLine(events)}\n`)
    return events
  })

interface Line {
  readonly number: number
  readonly text: string
}

/** Runs `each` on the lines of a file, one at a time, without reading it whole; answers how many there were. */
const linesOf = <E>(path: string, each: (line: Line) => Effect.Effect<void, E, EventStore>) =>
  Effect.suspend(() => {
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })
    const iterator = lines[Symbol.asyncIterator]()
    const nextLine = Effect.tryPromise({
      try: () => iterator.next(),
      catch: (error) =>
        new AuditError({ detail: `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}` }),
    })
    return Effect.gen(function* () {
      let number = 0
      while (true) {
        const next = yield* nextLine
        if (next.done === true) return number
        number++
        yield* each({ number, text: next.value })
      }
    }).pipe(Effect.ensuring(Effect.sync(() => lines.close())))
  })

const atLine = (number: number, detail: string) => new AuditError({ detail: `line ${number}: ${detail}` })

export interface ImportOptions {
  /** Appends to different streams in flight at once (1 keeps the file's exact global order in every store). */
  readonly appendsInFlightMax?: number
  readonly registry?: ReadonlyArray<AuditedAggregate>
  readonly onProgress?: (eventsWritten: number) => void
}

export const importDefaults = {
  appendsInFlightMax: 32,
  /** The most events one append carries (the PostgreSQL store takes 65,535; the SQLite store batches 4,096). */
  appendBatchMaxEvents: 1_000,
  /** Appends gathered before they are written together; a chunk never holds two of one stream. */
  chunkAppendsMax: 256,
} as const

export interface ImportSummary {
  readonly events: number
  readonly streams: number
  readonly appends: number
}

/** The target store's version of a stream: 0 for a stream it does not hold. */
const versionInStore = (store: EventStoreShape, streamId: string) =>
  Effect.gen(function* () {
    let version = 0
    while (true) {
      const page = yield* store.readStream(streamId, { fromVersion: version + 1, maxCount: 1_000 })
      const last = page.at(-1)
      if (last === undefined) return version
      version = last.streamVersion
    }
  })

/** The first pass: every check, nothing written. Answers the event count and each stream's first version. */
const checkFile = (path: string, entries: ReadonlyArray<AuditedAggregate>) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const targetIsEmpty = (yield* store.readAll({ after: logStart, maxCount: 1 })).length === 0
    const nextVersion = new Map<string, number>()
    let previousPosition: bigint | undefined
    let events = 0
    let ended: number | undefined
    const check = ({ number, text }: Line) =>
      Effect.gen(function* () {
        if (ended !== undefined) return yield* atLine(number, `a line after the end line (line ${ended})`)
        const parsed = parseLine(text)
        if (Result.isFailure(parsed)) return yield* atLine(number, parsed.failure)
        const line = parsed.success
        if (line._tag === "End") {
          if (line.events !== events)
            return yield* atLine(number, `the end line counts ${line.events} events, the file holds ${events}`)
          ended = number
          return
        }
        const { event, globalPosition } = line
        const where = `${event.streamId} v${event.streamVersion}`
        if (previousPosition !== undefined && globalPosition <= previousPosition)
          return yield* atLine(
            number,
            `${where} is at position ${globalPosition}, not after the line before (${previousPosition}): the file is out of order`,
          )
        previousPosition = globalPosition
        const aggregate = aggregateOf(event.streamId, entries)
        if (aggregate === undefined)
          return yield* atLine(number, `${event.streamId} belongs to no aggregate the audit knows`)
        const decoded = aggregate.codec.decode(event)
        if (Result.isFailure(decoded)) return yield* atLine(number, `${where} does not decode: ${decoded.failure}`)
        const expected =
          nextVersion.get(event.streamId) ?? (targetIsEmpty ? 1 : (yield* versionInStore(store, event.streamId)) + 1)
        if (event.streamVersion !== expected)
          return yield* atLine(
            number,
            `${where} does not follow on: the stream is at version ${expected - 1} (in the file before it, or in the target store)`,
          )
        nextVersion.set(event.streamId, expected + 1)
        events++
      })
    const lines = yield* linesOf(path, check)
    if (ended === undefined)
      return yield* atLine(lines, "the file ends without its end line: it was cut short (truncated)")
    return { events, streams: nextVersion.size }
  })

interface Batch {
  readonly firstLine: number
  readonly streamId: string
  readonly firstVersion: number
  readonly events: Array<NewEvent>
  /** The source record of the batch's last event: where its append ends, and when it was recorded (one time for all). */
  last: RecordedEvent
}

const recordOf = (event: ExportedEvent, globalPosition: bigint): RecordedEvent => ({
  ...event,
  globalPosition,
})

const newEventOf = ({ id, type, schemaVersion, data, metadata }: ExportedEvent): NewEvent => {
  const { recordedAt: _, ...ids } = metadata
  return Object.keys(ids).length === 0
    ? { id, type, schemaVersion, data }
    : { id, type, schemaVersion, data, metadata: ids }
}

/** The second pass: the appends, with the versions the first pass checked. */
const writeFile = (path: string, options: ImportOptions) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const inFlight = options.appendsInFlightMax ?? importDefaults.appendsInFlightMax
    let chunk: Array<Batch> = []
    let chunkStreams = new Set<string>()
    let batch: Batch | undefined
    let written = 0
    let appends = 0

    const append = (b: Batch) =>
      store.append(b.streamId, b.events, b.firstVersion === 1 ? "no_stream" : b.firstVersion - 1).pipe(
        Effect.provideService(Clock.Clock, fixedClock(b.last.metadata.recordedAt)),
        Effect.mapError((error) =>
          atLine(
            b.firstLine,
            error._tag === "VersionConflict"
              ? `${b.streamId} moved on while importing: ${error.message}`
              : `the target store refused ${b.streamId} v${b.firstVersion}: ${error.message}`,
          ),
        ),
      )

    const flushChunk = Effect.gen(function* () {
      if (chunk.length === 0) return
      const appending = chunk
      chunk = []
      chunkStreams = new Set()
      yield* Effect.forEach(appending, append, { concurrency: inFlight, discard: true })
      appends += appending.length
      written += appending.reduce((n, b) => n + b.events.length, 0)
      options.onProgress?.(written)
    })

    const closeBatch = Effect.gen(function* () {
      const closing = batch
      if (closing === undefined) return
      batch = undefined
      if (chunkStreams.has(closing.streamId) || chunk.length >= importDefaults.chunkAppendsMax) yield* flushChunk
      chunk.push(closing)
      chunkStreams.add(closing.streamId)
    })

    const take = ({ number, text }: Line) =>
      Effect.gen(function* () {
        const parsed = parseLine(text)
        // The first pass has checked every line: only the end line is not an event.
        if (Result.isFailure(parsed) || parsed.success._tag === "End") return
        const { event, globalPosition } = parsed.success
        const record = recordOf(event, globalPosition)
        const continues =
          batch !== undefined &&
          !endsAppend(batch.last, record) &&
          batch.events.length < importDefaults.appendBatchMaxEvents
        if (batch !== undefined && continues) {
          batch.events.push(newEventOf(event))
          batch.last = record
          return
        }
        yield* closeBatch
        batch = {
          firstLine: number,
          streamId: event.streamId,
          firstVersion: event.streamVersion,
          events: [newEventOf(event)],
          last: record,
        }
      })

    yield* linesOf(path, take)
    yield* closeBatch
    yield* flushChunk
    return { written, appends }
  })

/** Checks the export file at `path`, then writes it into the store; refuses (writing nothing) a file that fails a check. */
export const importLog = (
  path: string,
  options: ImportOptions = {},
): Effect.Effect<ImportSummary, AuditError | StoreError, EventStore> =>
  Effect.gen(function* () {
    const checked = yield* checkFile(path, options.registry ?? registry)
    const { written, appends } = yield* writeFile(path, options)
    return { events: written, streams: checked.streams, appends }
  })
