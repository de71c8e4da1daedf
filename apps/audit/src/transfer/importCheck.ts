/**
 * Import's first pass: every check, nothing written. Every line parses;
 * global positions increase; every event decodes with its aggregate's codec
 * (upcasters included), a sealed one once opened with the file's keys and
 * the master key file; each stream's versions follow on from where the
 * target store's stream stands; every event hashes to the chain hash the
 * file gives, and every signed head digests the events before it; the end
 * line is there and counts the events. A file that breaks any of these is
 * refused with the line that breaks it. Memory: each stream's last version
 * and chain hash.
 */
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
  type Sealer,
  type StreamHead,
  SubjectKeys,
} from "@mizan/eventsourcing"
import { Effect, Option, Result } from "effect"
import { AuditError } from "../common/stores.ts"
import { type AuditedAggregate, aggregateOf } from "../model/registry.ts"
import { atLine, type Line, linesOf } from "./fileLines.ts"
import { sealerOver } from "./fileSealer.ts"
import { type ExportedHead, parseLine } from "./ndjson.ts"

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

/** Why a file with signed heads goes into no store that holds events: said before any other check, at its first head. */
const headsNeedAnEmptyStore = (number: number, targetName: string) =>
  atLine(
    number,
    `the file carries signed heads, which digest a log from its first event: it goes into an empty store only, and ${targetName} holds events`,
  )

/**
 * The line of the file's first signed head, if it has one. Only a line
 * that names "signedHead" is parsed: a head line always does, and the scan
 * stops at the first.
 */
const firstHeadLine = (path: string) =>
  linesOf(path, ({ number, text }) => {
    if (!text.includes('"signedHead"')) return Effect.void
    const parsed = parseLine(text)
    return Result.isSuccess(parsed) && parsed.success._tag === "Head" ? Effect.fail({ headAt: number }) : Effect.void
  }).pipe(
    Effect.as(undefined),
    Effect.catchIf(
      (found): found is { readonly headAt: number } => "headAt" in found,
      (found) => Effect.succeed(found.headAt),
    ),
  )

/** Why `import --seal` cannot run: it would store the file in clear. */
const importSealNeedsKeys = () =>
  new AuditError({
    detail:
      "import --seal needs the target store's key table and the master key file (--master-key-file or MIZAN_MASTER_KEY_FILE)",
  })

/** The first pass: every check, nothing written. Answers the event count, each stream's first version, and whether it holds heads. */
export const checkFile = Effect.fn("Audit.checkFile")(function* (
  path: string,
  entries: ReadonlyArray<AuditedAggregate>,
  seal: boolean,
  targetName: string,
) {
  const store = yield* EventStore
  const targetIsEmpty = (yield* store.readAll({ after: logStart, maxCount: 1 })).length === 0
  if (seal && !targetIsEmpty)
    return yield* new AuditError({
      detail: "import --seal writes a log whose stream ids and chain are its own: import it into an empty store",
    })
  if (!targetIsEmpty) {
    // Before the events are checked: the first that the target holds already would be refused as not following on.
    const headAt = yield* firstHeadLine(path)
    if (headAt !== undefined) return yield* headsNeedAnEmptyStore(headAt, targetName)
  }
  const targetKeys = yield* Effect.serviceOption(SubjectKeys)
  // Checked before anything is written: without a key table and a master key, --seal would store the file in clear.
  if (seal && (Option.isNone(targetKeys) || Option.isNone(yield* Effect.serviceOption(KeyRing))))
    return yield* importSealNeedsKeys()
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
    // Found by firstHeadLine before; a head line it missed would still be refused here.
    if (!targetIsEmpty) return yield* headsNeedAnEmptyStore(number, targetName)
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
