/**
 * The rules that span streams, checked once the whole log (or the part read)
 * is replayed: every order-number index names a stream the log holds, and
 * every refund order agrees with its reservation on its acquiring order
 * (refundReservation.ts). A replayer holding every stream answers them alone;
 * the workers of a parallel replay each hold some streams, so a stream's
 * rules ask about streams another worker may hold: each worker says which
 * streams its rules ask about (`wants`), the worker holding each answers
 * what the rules read of it (`StreamFacts`), and the asker then judges.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import type { RefundOrder } from "@mizan/refund"
import { orderIndexRules } from "../model/orderIndex.ts"
import { acquiringKind, orderIndexKind, refundKind } from "../model/registry.ts"
import { refundReservationProblem } from "./refundReservation.ts"
import type { BrokenInvariant, EventPlace } from "./replayReport.ts"

/** What the cross-stream rules read of a stream: that the log holds it, and an acquiring order's refund reservations. */
export interface StreamFacts {
  /** Undefined for a stream that is no acquiring order, or one with no order yet. */
  readonly order?: {
    readonly status: AcquiringOrder.Order["status"]
    readonly refunds: ReadonlyArray<AcquiringOrder.RefundReservation>
  }
}

/** Facts of the streams asked about, by id; a stream the log does not hold has none. */
export type FactsOf = (streamId: string) => StreamFacts | undefined

/** A stream whose rules span streams, as the replay holds it (its state is the domain's or a compact one). */
export interface CrossStreamSubject extends EventPlace {
  readonly kind: string | undefined
  readonly state: unknown
  /** Events read before the stream's first: orders the findings as one replayer would, whichever worker holds it. */
  readonly firstRead: number
}

/** A broken cross-stream rule, with what orders it in the report. */
export interface CrossStreamFinding {
  /** The dangling indexes are listed before the refunds apart from their reservations. */
  readonly group: 0 | 1
  readonly firstRead: number
  readonly finding: BrokenInvariant
}

/**
 * The kinds of stream whose rules span streams (the asking side): an
 * order-number index and a refund order. The replay hands these alone to
 * `wantedStreams` and `crossStreamFindings`, which find nothing in any other.
 */
export const askingKinds: ReadonlySet<string> = new Set([orderIndexKind, refundKind])

/** The stream an order-number index of this state names, when it is issued. */
const streamNamedByIndex = (kind: string | undefined, state: unknown): string | undefined => {
  if (kind !== orderIndexKind) return undefined
  const index = state as { status?: string; streamId?: string } | undefined
  return index?.status === "ISSUED" ? index.streamId : undefined
}

const namedByIndex = (subject: CrossStreamSubject): string | undefined =>
  streamNamedByIndex(subject.kind, subject.state)

/**
 * Whether a stream's rules that span streams hold for good, whatever the log
 * holds after it: an issued order-number index whose stream the log holds
 * already (`held`), since a stream once read stays in the log. A refund's
 * rule reads an acquiring order a later event may change, so it never does.
 * The replay asks as it retires an index, right after the index's event:
 * the stream it names was written just before it and is still in the
 * processor's cache, where at the end it is one of a quarter of a million
 * cold reads on a million events.
 */
export const holdsForGood = (kind: string, state: unknown, held: (streamId: string) => boolean): boolean => {
  const named = streamNamedByIndex(kind, state)
  return named !== undefined && held(named)
}

const refundOf = (subject: CrossStreamSubject): RefundOrder.Order | undefined => {
  if (subject.kind !== refundKind) return undefined
  const state = subject.state as RefundOrder.State
  return state.status === "ABSENT" ? undefined : state
}

/** The acquiring stream a refund order names (its merchant's order, by the order number). */
const acquiringStreamOf = (refund: RefundOrder.Order): string =>
  AcquiringOrder.streamId(refund.merchantId, refund.details.originMerchantOrderNo)

/** The streams these subjects' rules ask about. */
export const wantedStreams = (subjects: Iterable<CrossStreamSubject>): Array<string> => {
  const wanted: Array<string> = []
  for (const subject of subjects) {
    const named = namedByIndex(subject)
    if (named !== undefined) wanted.push(named)
    const refund = refundOf(subject)
    if (refund !== undefined) wanted.push(acquiringStreamOf(refund))
  }
  return wanted
}

/** What the rules read of one stream the replay holds. */
export const factsOfState = (kind: string | undefined, state: unknown): StreamFacts => {
  if (kind !== acquiringKind) return {}
  const order = state as {
    status: AcquiringOrder.State["status"]
    refunds?: ReadonlyArray<AcquiringOrder.RefundReservation>
  }
  return order.status === "ABSENT" || order.refunds === undefined
    ? {}
    : { order: { status: order.status, refunds: order.refunds } }
}

/** The broken cross-stream rules of these subjects. */
export const crossStreamFindings = (
  subjects: Iterable<CrossStreamSubject>,
  factsOf: FactsOf,
): Array<CrossStreamFinding> => {
  const found: Array<CrossStreamFinding> = []
  for (const subject of subjects) {
    const { firstRead } = subject
    const place = {
      streamId: subject.streamId,
      streamVersion: subject.streamVersion,
      globalPosition: subject.globalPosition,
    }
    const named = namedByIndex(subject)
    if (named !== undefined && factsOf(named) === undefined)
      found.push({
        group: 0,
        firstRead,
        finding: {
          kind: orderIndexKind,
          ...place,
          rule: orderIndexRules.namesExistingStream,
          detail: `names ${named}, which holds no event`,
        },
      })
    const refund = refundOf(subject)
    if (refund === undefined) continue
    const problem = refundReservationProblem(refund, (streamId) => factsOf(streamId)?.order)
    if (problem !== undefined) found.push({ group: 1, firstRead, finding: { kind: refundKind, ...place, ...problem } })
  }
  return found
}

/** The findings in report order: the dangling indexes, then the refunds, each in the order their streams were first read. */
export const inReportOrder = (found: ReadonlyArray<CrossStreamFinding>): Array<BrokenInvariant> =>
  [...found].sort((a, b) => a.group - b.group || a.firstRead - b.firstRead).map((f) => f.finding)
