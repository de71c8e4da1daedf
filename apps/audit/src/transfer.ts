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
 *
 * The tamper-evident log travels too (docs/architecture.md#a-tamper-evident-log).
 * The first pass recomputes every event's chain hash and the running digest
 * at every signed head, and refuses a file whose events are not the ones
 * they hashed or signed. The second pass compares the hash the target store
 * computes for each event with the file's, and stores every head with the
 * target's position of its last event, once the target's log digests to
 * it. A head digests the log from its first event in its order, so a file
 * with heads imports only into an empty store, by default one append at a
 * time (concurrent appends may commit in another order). Memory: each
 * stream's last version and chain hash.
 *
 * Sealed personal data travels too (docs/architecture.md#sealed-personal-data):
 * export writes the key table's rows first (data keys wrapped by the master
 * key, as stored), then the sealed events as stored. Import checks a sealed
 * event by opening it with the file's keys and the master key file, and
 * writes keys and events as they are, so the chain and the heads still
 * hold. With `seal` (a store written before sealing, exported and imported
 * into a new store), import seals every personal field in clear on the way
 * in: those events are stored otherwise than the file holds them, so their
 * chain is the target's own and the file's signed heads are left behind
 * (the new store's notifier signs new ones).
 */
import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import {
  chainGenesis,
  chainHashOf,
  EventStore,
  type EventStoreShape,
  emptyStreamHead,
  equalitySubjectId,
  isSealed,
  KeyRing,
  logDigestAfter,
  logStart,
  makeMemorySubjectKeys,
  makeSealerOn,
  type NewEvent,
  type RecordedEvent,
  type Sealer,
  type SignedHead,
  type StoreError,
  type StreamHead,
  SubjectKeys,
  sealedEventStore,
} from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { Clock, Effect, Option, Result } from "effect"
import { fixedClock } from "./fixedClock.ts"
import { type ExportedEvent, type ExportedHead, endLine, exportLine, headLine, keyLine, parseLine } from "./ndjson.ts"
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

/** Signed heads read per page by export. */
const headsPageSize = 1_000

/** Data keys read per page by export. */
const keysPageSize = 1_000

/** Writes the key table's rows, if the store has one, before anything else. */
const exportKeys = Effect.fn("Audit.exportKeys")(function* (write: WriteChunk) {
  const keys = yield* Effect.serviceOption(SubjectKeys)
  if (Option.isNone(keys)) return
  let after = ""
  while (true) {
    const page = yield* keys.value.allKeys(after, keysPageSize)
    const last = page.at(-1)
    if (last === undefined) return
    yield* write(`${page.map(keyLine).join("\n")}\n`)
    after = last.keyId
  }
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
    yield* exportKeys(write)
    let heads = yield* store.readSignedHeads({ afterCount: 0, maxCount: headsPageSize })
    let headIndex = 0
    /** The lines of the heads up to `count` events, reading the next page of heads as one runs out. */
    const headLinesUpTo = Effect.fnUntraced(function* (count: number) {
      const lines: Array<string> = []
      while (true) {
        if (headIndex === heads.length) {
          const last = heads.at(-1)
          if (last === undefined) return lines
          heads = yield* store.readSignedHeads({ afterCount: last.count, maxCount: headsPageSize })
          headIndex = 0
          if (heads.length === 0) return lines
        }
        const head = heads[headIndex]!
        if (head.count > count) return lines
        lines.push(headLine(head))
        headIndex++
      }
    })
    let after = logStart
    let events = 0
    while (true) {
      const page = yield* store.readAll({ after, maxCount })
      if (page.length === 0) break
      const lines: Array<string> = []
      for (const event of page) {
        lines.push(exportLine(event))
        events++
        // Each head right after the event it ends at, where import checks it.
        lines.push(...(yield* headLinesUpTo(events)))
      }
      yield* write(`${lines.join("\n")}\n`)
      after = page[page.length - 1]!.globalPosition
      options.onProgress?.(events)
    }
    // Heads past the log's end (its tail was cut off) are exported too, for import to refuse.
    const beyond = yield* headLinesUpTo(Number.MAX_SAFE_INTEGER)
    yield* write(`${[...beyond, endLine(events)].join("\n")}\n`)
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
  /**
   * Appends to different streams in flight at once (1 keeps the file's exact
   * global order in every store). Default: 32, or 1 for a file with signed
   * heads, which digest that order (the SQLite store keeps it at any number;
   * a store that does not is caught at the next head).
   */
  readonly appendsInFlightMax?: number
  readonly registry?: ReadonlyArray<AuditedAggregate>
  readonly onProgress?: (eventsWritten: number) => void
  /** Seal every personal field the file holds in clear, into an empty store (the file's heads are left behind). */
  readonly seal?: boolean
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
  readonly signedHeads: number
  /** Data keys written to the target's key table. */
  readonly keys: number
  /** The file's signed heads not stored, because sealing changed the events they digest. */
  readonly signedHeadsLeftBehind: number
}

/** The sealer of `mizanSealingPlan` over `keys`, with the master key file given to the audit. */
const sealerOver = Effect.fn("Audit.sealerOver")(function* (keys: SubjectKeys["Service"], number: number, why: string) {
  const keyRing = yield* Effect.serviceOption(KeyRing)
  if (Option.isNone(keyRing))
    return yield* atLine(
      number,
      `${why}: give the master key file that wraps the data keys (--master-key-file or MIZAN_MASTER_KEY_FILE)`,
    )
  return yield* makeSealerOn(mizanSealingPlan, keys, keyRing.value).pipe(
    Effect.mapError((error) => atLine(number, error.detail)),
  )
})

/** Where the target store's stream stands: version 0 for a stream it does not hold. */
const headInStore = Effect.fn("Audit.headInStore")(function* (store: EventStoreShape, streamId: string) {
  let head: StreamHead = emptyStreamHead
  while (true) {
    const page = yield* store.readStream(streamId, { fromVersion: head.version + 1, maxCount: 1_000 })
    const last = page.at(-1)
    if (last === undefined) return head
    // A store that keeps no chain leaves the genesis: its events' hashes are not the file's concern.
    head = { version: last.streamVersion, chainHash: last.chainHash ?? chainGenesis }
  }
})

/** Why a head line does not hold for the file's events so far, if it does not. */
const headProblem = (head: ExportedHead, events: number, lastEventId: string | undefined, digest: string) => {
  if (head.count !== events)
    return `the signed head of ${head.count} events stands after event ${events}: the file lost or gained events before it`
  if (head.lastEventId !== lastEventId || head.digest !== digest)
    return `the signed head of ${head.count} events does not digest the file's first ${head.count} events: the file was changed`
  return undefined
}

/** The first pass: every check, nothing written. Answers the event count, each stream's first version, and whether it holds heads. */
const checkFile = Effect.fn("Audit.checkFile")(function* (
  path: string,
  entries: ReadonlyArray<AuditedAggregate>,
  seal: boolean,
) {
  const store = yield* EventStore
  const targetIsEmpty = (yield* store.readAll({ after: logStart, maxCount: 1 })).length === 0
  if (seal && !targetIsEmpty)
    return yield* new AuditError({
      detail: "import --seal writes a log whose stream ids and chain are its own: import it into an empty store",
    })
  const targetKeys = yield* Effect.serviceOption(SubjectKeys)
  // Checked before anything is written: without a key table and a master key, --seal would store the file in clear.
  if (seal && (Option.isNone(targetKeys) || Option.isNone(yield* Effect.serviceOption(KeyRing))))
    return yield* new AuditError({
      detail:
        "import --seal needs the target store's key table and the master key file (--master-key-file or MIZAN_MASTER_KEY_FILE)",
    })
  // The file's key table, to open its sealed events with, without writing anything yet.
  const fileKeys = makeMemorySubjectKeys()
  let keys = 0
  let opener: Sealer | undefined
  const heads = new Map<string, StreamHead>()
  let previousPosition: bigint | undefined
  let events = 0
  let signedHeads = 0
  let digest = chainGenesis
  let lastEventId: string | undefined
  let ended: number | undefined
  const checkHead = Effect.fnUntraced(function* (number: number, head: ExportedHead) {
    if (!targetIsEmpty)
      return yield* atLine(
        number,
        "the file carries signed heads, which digest a log from its first event: import it into an empty store",
      )
    const problem = headProblem(head, events, lastEventId, digest)
    if (problem !== undefined) return yield* atLine(number, problem)
    signedHeads++
  })
  const check = Effect.fnUntraced(function* ({ number, text }: Line) {
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
    if (line._tag === "Head") return yield* checkHead(number, line.head)
    if (line._tag === "Key") {
      if (events > 0) return yield* atLine(number, "a data key line after the events: the file is out of order")
      if (Option.isNone(targetKeys))
        return yield* atLine(number, "the file carries data keys, and the target store keeps no key table")
      const { key } = line
      if (key.subjectId === equalitySubjectId && key.wrappedKey !== undefined) {
        const theirs = yield* targetKeys.value.liveKeyOf(equalitySubjectId)
        if (theirs !== undefined && theirs.keyId !== key.keyId)
          return yield* atLine(
            number,
            "the file's keyed ids were made with another secret than the target store's: import it into a new store",
          )
      }
      yield* fileKeys.addKey(key)
      keys++
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
    let data = event.data
    if (isSealed(data)) {
      opener ??= yield* sealerOver(fileKeys, number, `${event.streamId} v${event.streamVersion} is sealed`)
      data = yield* opener
        .open(event.streamId, event.id, data)
        .pipe(Effect.mapError((error) => atLine(number, error.detail)))
    }
    const decoded = aggregate.codec.decode({ ...event, data })
    if (Result.isFailure(decoded)) return yield* atLine(number, `${where} does not decode: ${decoded.failure}`)
    const head =
      heads.get(event.streamId) ?? (targetIsEmpty ? emptyStreamHead : yield* headInStore(store, event.streamId))
    if (event.streamVersion !== head.version + 1)
      return yield* atLine(
        number,
        `${where} does not follow on: the stream is at version ${head.version} (in the file before it, or in the target store)`,
      )
    const chainHash = chainHashOf(head.chainHash, event)
    if (event.chainHash !== undefined && event.chainHash !== chainHash)
      return yield* atLine(
        number,
        `${where} does not hash to the chain hash the file gives: the event was changed after it was recorded`,
      )
    heads.set(event.streamId, { version: event.streamVersion, chainHash })
    digest = logDigestAfter(digest, chainHash)
    lastEventId = event.id
    events++
  })
  const lines = yield* linesOf(path, check)
  if (ended === undefined)
    return yield* atLine(lines, "the file ends without its end line: it was cut short (truncated)")
  return { events, streams: heads.size, signedHeads, keys }
})

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
const writeFile = Effect.fn("Audit.writeFile")(function* (path: string, options: ImportOptions, inFlight: number) {
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
    if (chunkStreams.has(closing.streamId) || chunk.length >= importDefaults.chunkAppendsMax) yield* flushChunk
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

/** Checks the export file at `path`, then writes it into the store; refuses (writing nothing) a file that fails a check. */
export const importLog = (
  path: string,
  options: ImportOptions = {},
): Effect.Effect<ImportSummary, AuditError | StoreError, EventStore> =>
  Effect.gen(function* () {
    const checked = yield* checkFile(path, options.registry ?? registry, options.seal === true)
    // Heads digest the file's order: unless told otherwise, keep it exactly, which one append at a time does in any store.
    const inFlight = options.appendsInFlightMax ?? (checked.signedHeads > 0 ? 1 : importDefaults.appendsInFlightMax)
    const { written, appends, headsLeftBehind } = yield* writeFile(path, options, inFlight)
    return {
      events: written,
      streams: checked.streams,
      appends,
      signedHeads: checked.signedHeads - headsLeftBehind,
      keys: checked.keys,
      signedHeadsLeftBehind: headsLeftBehind,
    }
  })
