/**
 * `verify`: checks the tamper-evident log (docs/architecture.md#a-tamper-evident-log).
 * Reads the log once in global order and, for every event, recomputes its
 * chain hash from its stream's previous one; keeps the running digest of
 * every chain hash and, at each signed head's count, checks the head's
 * signature, last event and digest. A head whose count the log never
 * reaches means the log lost events at its end (or anywhere before it).
 *
 * After a finding it goes on from what the store holds (an event's stored
 * chain hash, a head's signed digest once its signature holds), so that one
 * changed event or one removed stream is reported once, not again at every
 * later event and head. Memory: each stream's last version and hash.
 */
import {
  chainGenesis,
  chainHashOf,
  EventStore,
  logDigestAfter,
  logStart,
  type RecordedEvent,
  type SignedHead,
  type StoreError,
  type StreamHead,
  signedHeadPayload,
} from "@mizan/eventsourcing"
import { type PublicKey, verify } from "@mizan/protocol"
import { Effect } from "effect"
import { logPageSizeEventsDefault } from "../replay/replay.ts"

/** An event whose chain does not hold: named by stream, version and global position. */
export interface EventFinding {
  readonly _tag: "Event"
  readonly streamId: string
  readonly streamVersion: number
  readonly globalPosition: bigint
  readonly detail: string
}

/** A signed head that does not hold: named by its count and when it was signed. */
export interface HeadFinding {
  readonly _tag: "Head"
  readonly count: number
  readonly signedAt: number
  readonly detail: string
}

export type VerifyFinding = EventFinding | HeadFinding

export interface VerifyReport {
  readonly events: number
  readonly streams: number
  readonly headsChecked: number
  /** Events after the last signed head: an edit that rewrote their chain hashes, or a cut, would not show yet. */
  readonly eventsAfterLastHead: number
  /** In the order they were found: the first is the earliest place the log differs. */
  readonly findings: ReadonlyArray<VerifyFinding>
  /** Findings beyond `verifyFindingsMax`, counted and not listed. */
  readonly findingsNotListed: number
}

/** Findings listed at most: past one changed event and one removed stream, more lines say little more. */
export const verifyFindingsMax = 100

export const headPageSize = 1_000

export interface VerifyOptions {
  /** The service's public key; heads are not checked without one (then every head is a finding). */
  readonly servicePublicKey: PublicKey | undefined
  readonly pageSizeEvents?: number
}

const eventFinding = (event: RecordedEvent, detail: string): EventFinding => ({
  _tag: "Event",
  streamId: event.streamId,
  streamVersion: event.streamVersion,
  globalPosition: event.globalPosition,
  detail,
})

/** What is wrong with an event's link to its stream's previous one, if anything. */
const linkProblem = (event: RecordedEvent, previous: StreamHead): string | undefined => {
  // A walk in log order cannot tell a removed event from one moved later: it says both.
  if (event.streamVersion > previous.version + 1)
    return `the stream goes from version ${previous.version} to ${event.streamVersion}: the events between them are not here (removed, or moved later in the log)`
  if (event.streamVersion <= previous.version)
    return `the stream goes back from version ${previous.version} to ${event.streamVersion}: its events were moved or repeated`
  if (event.chainHash === undefined) return "it has no chain hash: the store keeps no chain"
  if (chainHashOf(previous.chainHash, event) !== event.chainHash)
    return "its recorded fields do not hash to its chain hash: it was changed after it was recorded"
  return undefined
}

const signatureHolds = (head: SignedHead, key: PublicKey | undefined): boolean =>
  key !== undefined && verify(signedHeadPayload(head), head.signature, key)

/** What is wrong with a head reached at the log's event `last`, with the log's digest there, if anything. */
const headProblem = (
  head: SignedHead,
  last: RecordedEvent,
  count: number,
  digest: string,
  key: PublicKey | undefined,
): string | undefined => {
  if (key === undefined) return "no service public key to check its signature with"
  if (!signatureHolds(head, key))
    return "its signature does not verify with the service's public key: it was not signed by this service, or was changed"
  if (head.lastEventId !== last.id || head.count !== count || head.digest !== digest)
    return `the log's first ${head.count} events are not the ones it signed (it ends at event ${head.lastEventId}; here the log holds ${count} events, up to ${last.streamId} v${last.streamVersion} at global position ${last.globalPosition}): events before it were removed, added or reordered`
  return undefined
}

export const verifyLog = (options: VerifyOptions): Effect.Effect<VerifyReport, StoreError, EventStore> =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const pageSize = options.pageSizeEvents ?? logPageSizeEventsDefault
    const streams = new Map<string, StreamHead>()
    const findings: Array<VerifyFinding> = []
    let findingsNotListed = 0
    const found = (finding: VerifyFinding) => {
      if (findings.length < verifyFindingsMax) findings.push(finding)
      else findingsNotListed++
    }

    let heads: ReadonlyArray<SignedHead> = yield* store.readSignedHeads({ afterCount: 0, maxCount: headPageSize })
    let headIndex = 0
    let headsChecked = 0
    let lastHeadCount = 0
    /** The next head not yet checked, reading the next page of heads when this one is used up. */
    const nextHead = Effect.gen(function* () {
      if (headIndex < heads.length) return heads[headIndex]
      const last = heads.at(-1)
      if (last === undefined) return undefined
      heads = yield* store.readSignedHeads({ afterCount: last.count, maxCount: headPageSize })
      headIndex = 0
      return heads[0]
    })

    let digest = chainGenesis
    /** Events so far as the heads count them: re-anchored at every head whose signature holds. */
    let count = 0
    let eventsRead = 0
    /** A head that failed at its count before its last event came: where the log is re-anchored once it does. */
    let pending: SignedHead | undefined
    /**
     * A head whose signature holds is the service's word for the log up to
     * it: later heads are checked from its count and digest, so that one
     * removed stream fails the first head after it, not every head after it.
     */
    const reanchored = (head: SignedHead, count: number, digest: string): [number, string] =>
      signatureHolds(head, options.servicePublicKey) ? [head.count, head.digest] : [count, digest]
    let after = logStart
    while (true) {
      const page = yield* store.readAll({ after, maxCount: pageSize })
      if (page.length === 0) break
      for (const event of page) {
        const previous = streams.get(event.streamId) ?? { version: 0, chainHash: chainGenesis }
        const problem = linkProblem(event, previous)
        if (problem !== undefined) found(eventFinding(event, problem))
        // Go on from what is stored, so that one changed event is one finding.
        const chainHash = event.chainHash ?? chainHashOf(previous.chainHash, event)
        streams.set(event.streamId, { version: event.streamVersion, chainHash })
        digest = logDigestAfter(digest, chainHash)
        count++
        eventsRead++
        if (pending !== undefined && event.id === pending.lastEventId) {
          ;[count, digest] = reanchored(pending, count, digest)
          pending = undefined
        }
        let head = yield* nextHead
        // A head is due at its last event, or at its count if that comes first (events were added before it).
        while (head !== undefined && (event.id === head.lastEventId || count >= head.count)) {
          const problem = headProblem(head, event, count, digest, options.servicePublicKey)
          if (problem !== undefined)
            found({ _tag: "Head", count: head.count, signedAt: head.signedAt, detail: problem })
          if (event.id === head.lastEventId) [count, digest] = reanchored(head, count, digest)
          else if (problem !== undefined) pending = head
          headsChecked++
          lastHeadCount = head.count
          headIndex++
          head = yield* nextHead
        }
      }
      after = page.at(-1)!.globalPosition
    }
    // Heads the log never reached: it lost events at its end, or anywhere before them.
    let unreached = yield* nextHead
    let firstUnreached = true
    while (unreached !== undefined) {
      if (firstUnreached)
        found({
          _tag: "Head",
          count: unreached.count,
          signedAt: unreached.signedAt,
          detail: `it covers ${unreached.count} events, the log holds only ${eventsRead}: events were removed (the log's tail cut off, or a stream deleted)`,
        })
      firstUnreached = false
      headsChecked++
      headIndex++
      unreached = yield* nextHead
    }
    return {
      events: eventsRead,
      streams: streams.size,
      headsChecked,
      eventsAfterLastHead: Math.max(count - lastHeadCount, 0),
      findings,
      findingsNotListed,
    }
  })

/**
 * Whether no signed head anchors a log that holds events: the chain hashes
 * are no secret, so links alone prove nothing (an edit that rewrote them
 * passes every one). A log of no events wants no head.
 */
export const verifyIsUnanchored = (report: VerifyReport): boolean => report.headsChecked === 0 && report.events > 0

/** Verified: no finding, and a signed head anchors the chain. */
export const verifyIsClean = (report: VerifyReport): boolean =>
  report.findings.length === 0 && !verifyIsUnanchored(report)
