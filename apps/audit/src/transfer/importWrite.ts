/**
 * Import's second pass: each source append again as one append
 * (consecutive lines of one stream with one recorded time: `endsAppend`),
 * with the expected version the first pass established, its ids,
 * correlation ids and recorded time kept (the store's Clock is stopped at
 * the event's recordedAt). Global positions are the target's own. The hash
 * the target computes for each event must be the file's, and every head is
 * stored with the target's position of its last event once the target's
 * log digests to it. Key lines go to the target's key table as they are;
 * with `seal`, events go through a sealer over it.
 */
import {
  chainGenesis,
  EventStore,
  type EventStoreShape,
  logDigestAfter,
  type NewEvent,
  type RecordedEvent,
  type SignedHead,
  SubjectKeys,
  sealedEventStore,
} from "@mizan/eventsourcing"
import { Clock, Effect, Option, Result } from "effect"
import { endsAppend } from "../replay/replay.ts"
import { atLine, type Line, linesOf } from "./fileLines.ts"
import { sealerOver } from "./fileSealer.ts"
import { fixedClock } from "./fixedClock.ts"
import { type ImportOptions, importDefaults } from "./importOptions.ts"
import { type ExportedEvent, type ExportedHead, parseLine } from "./ndjson.ts"

interface Batch {
  readonly firstLine: number
  readonly streamId: string
  readonly firstVersion: number
  readonly events: Array<NewEvent>
  /** The file's chain hash of each event, where it gives one: the target's must be the same. */
  readonly chainHashes: Array<string | undefined>
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

/** The second pass: the appends, with the versions the first pass checked; `inFlight` 1 when the file holds heads. */
export const writeFile = Effect.fn("Audit.writeFile")(function* (
  path: string,
  options: ImportOptions,
  inFlight: number,
) {
  const raw = yield* EventStore
  const targetKeys = yield* Effect.serviceOption(SubjectKeys)
  const seal = options.seal === true
  /** Where events go: the store as it is, or (with `seal`) through a sealer made once the file's keys are in. */
  let store: EventStoreShape = raw
  let sealing = false
  /** The target's records of the chunk being written, to fold into the digest in the target's order. */
  let chunkRecords: Array<RecordedEvent> = []
  /** The target's log as written so far: count, running digest and last record. */
  let targetCount = 0
  let targetDigest = chainGenesis
  let lastWritten: RecordedEvent | undefined
  let chunk: Array<Batch> = []
  let chunkStreams = new Set<string>()
  let batch: Batch | undefined
  let written = 0
  let appends = 0

  const append = (b: Batch) =>
    store.append(b.streamId, b.events, b.firstVersion === 1 ? "no_stream" : b.firstVersion - 1).pipe(
      Effect.provideService(Clock.Clock, fixedClock(b.last.metadata.recordedAt)),
      Effect.catchTags({
        VersionConflict: (conflict) =>
          Effect.fail(atLine(b.firstLine, `${b.streamId} moved on while importing: ${conflict.message}`)),
        StoreError: (error) =>
          Effect.fail(
            atLine(b.firstLine, `the target store refused ${b.streamId} v${b.firstVersion}: ${error.message}`),
          ),
      }),
      Effect.flatMap(({ records }) => {
        // Sealed on the way in, an event is stored otherwise than the file holds it: its chain is the target's own.
        const differs = seal
          ? -1
          : records.findIndex((r, i) => b.chainHashes[i] !== undefined && r.chainHash !== b.chainHashes[i])
        if (differs >= 0)
          return atLine(
            b.firstLine + differs,
            `the target store hashes ${b.streamId} v${records[differs]!.streamVersion} otherwise than the file: it did not keep the event as written`,
          )
        chunkRecords.push(...records)
        return Effect.void
      }),
    )

  /**
   * Stores a head at the target's position of the event it ends at, every
   * append before it written, once the target's log digests to it: appends
   * written at once may commit in another order than the file's.
   */
  let headsLeftBehind = 0
  const storeHead = Effect.fnUntraced(function* (number: number, head: ExportedHead) {
    if (seal) {
      headsLeftBehind++
      return
    }
    yield* closeBatch
    yield* flushChunk
    if (targetCount !== head.count || targetDigest !== head.digest)
      return yield* atLine(
        number,
        `the target store committed the appends before this signed head in another order than the file's (appends written at once): import again, into an empty store, with --in-flight 1`,
      )
    const signed: SignedHead = { ...head, position: lastWritten!.globalPosition }
    yield* store.storeSignedHead(signed)
  })

  const flushChunk = Effect.gen(function* () {
    if (chunk.length === 0) return
    const appending = chunk
    chunk = []
    chunkStreams = new Set()
    yield* Effect.forEach(appending, append, { concurrency: inFlight, discard: true })
    // One chunk is written after the one before has committed, so sorting within a chunk gives the target's order.
    for (const record of chunkRecords.sort((a, b) => (a.globalPosition < b.globalPosition ? -1 : 1))) {
      targetDigest = logDigestAfter(targetDigest, record.chainHash ?? chainGenesis)
      targetCount++
      lastWritten = record
    }
    chunkRecords = []
    appends += appending.length
    written += appending.reduce((n, b) => n + b.events.length, 0)
    options.onProgress?.(written)
  })

  const closeBatch = Effect.gen(function* () {
    const closing = batch
    if (closing === undefined) return
    batch = undefined
    if (chunkStreams.has(closing.streamId) || chunk.length >= importDefaults.chunkMaxAppends) yield* flushChunk
    chunk.push(closing)
    chunkStreams.add(closing.streamId)
  })

  const take = Effect.fnUntraced(function* ({ number, text }: Line) {
    const parsed = parseLine(text)
    // The first pass has checked every line.
    if (Result.isFailure(parsed) || parsed.success._tag === "End") return
    if (parsed.success._tag === "Head") return yield* storeHead(number, parsed.success.head)
    if (parsed.success._tag === "Key") {
      // The first pass refused key lines for a target without a key table.
      if (Option.isSome(targetKeys)) yield* targetKeys.value.addKey(parsed.success.key)
      return
    }
    if (seal && !sealing && Option.isSome(targetKeys)) {
      store = sealedEventStore(raw, yield* sealerOver(targetKeys.value, number, "import --seal"))
      sealing = true
    }
    const { event, globalPosition } = parsed.success
    const record = recordOf(event, globalPosition)
    const continues =
      batch !== undefined &&
      !endsAppend(batch.last, record) &&
      batch.events.length < importDefaults.appendBatchMaxEvents
    if (batch !== undefined && continues) {
      batch.events.push(newEventOf(event))
      batch.chainHashes.push(event.chainHash)
      batch.last = record
      return
    }
    yield* closeBatch
    batch = {
      firstLine: number,
      streamId: event.streamId,
      firstVersion: event.streamVersion,
      events: [newEventOf(event)],
      chainHashes: [event.chainHash],
      last: record,
    }
  })

  yield* linesOf(path, take)
  yield* closeBatch
  yield* flushChunk
  return { written, appends, headsLeftBehind }
})
