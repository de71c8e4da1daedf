/**
 * The replay: every recorded event, in global order, folded into its
 * stream's state, and that aggregate's `invariants` checked after every
 * append, on every state a reader can load (CONTRIBUTING.md#how-the-code-reads,
 * "assert what must hold in two places": the decider promised them, the
 * audit asserts them). A replay folds with the domain's own `evolve`, to
 * print states (`show`, `at`), or into compact audit states, to report
 * (auditFold.ts); both break the same rules.
 *
 * Memory: one `TrackedStream` per open stream (its id, its current state
 * and a few numbers). A compact replay retires a stream once an append leaves
 * its state final (`ended`, auditFold.ts): its status and money go into
 * running totals, and it shrinks to a record in columns (retiredStreams.ts)
 * that keeps its state, since the rules that span streams read it, and an
 * event after the end (a damaged log) revives it, to be folded and reported
 * as in a replay without retirement. A domain replay (`show`, `at`) retires
 * nothing. README.md, Memory, gives the measured cost of each. What is
 * bounded: the findings listed (`findingsListedMax` of each kind; the totals
 * still count every one), and one page of events at a time.
 */

import {
  type DamagedEvent,
  EventStore,
  type GlobalPosition,
  logStart,
  type ReadAllOptions,
  type RecordedEvent,
  type StoreError,
} from "@mizan/eventsourcing"
import { withoutUndefined } from "@mizan/kernel"
import { Effect, Result } from "effect"
import type { AuditFold, FoldedStates } from "../model/auditFold.ts"
import { type AuditedAggregate, domainFold, registry } from "../model/registry.ts"
import {
  type CrossStreamFinding,
  crossStreamFindings,
  type FactsOf,
  inReportOrder,
  type StreamFacts,
  wantedStreams,
} from "./crossStream.ts"
import { EventFolder } from "./eventFolder.ts"
import { HeldStreams } from "./heldStreams.ts"
import { partOf } from "./partialReport.ts"
import { ReplayFindings } from "./replayFindings.ts"
import { assembleReport, type PartialReport, type ReplayReport } from "./replayReport.ts"
import { holderOf, type Partition, type TrackedStreams } from "./tracked.ts"

export { evolveRule, timeRule } from "./replayFindings.ts"
export {
  type BrokenInvariant,
  type EventPlace,
  type Findings,
  isClean,
  type KindCount,
  type ReplayReport,
  type StatusCount,
  type UndecodableEvent,
  unknownKind,
  type VersionGap,
} from "./replayReport.ts"
export type { Partition, TrackedStream, TrackedStreams } from "./tracked.ts"

/**
 * Whether `next`, the event read right after `record`, starts another append
 * than the one `record` belongs to. An append's events are one stream's, one
 * after another in the log, recorded at one time (the port promises one
 * `recordedAt` per append). Positions are not used: KurrentDB's are offsets
 * in its log, never adjacent. Two appends of one stream recorded in the same
 * millisecond, one right after the other, read as one and are judged together.
 */
export const endsAppend = (record: RecordedEvent, next: RecordedEvent | undefined): boolean =>
  next === undefined || next.streamId !== record.streamId || next.metadata.recordedAt !== record.metadata.recordedAt

/** How many findings of each kind a report lists; the totals count them all. */
export const findingsListedMaxDefault = 1_000
/**
 * Events per `readAll` page. Small enough that a page is folded before the
 * young generation fills twice: a page still held then (its rows, their
 * parsed data) is copied at each scavenge and promoted to the old
 * generation, to be collected there. Over the million events of
 * `npm run bench -- audit`, pages of 5,000 had V8 promote about 600 MB and
 * pause 1.1-1.8 s for scavenges; pages of 500 promote about 220 MB (little
 * more than the states the replay keeps) and pause 0.4 s, and the raw read
 * is as fast with either (README.md, Performance).
 */
export const replayPageSizeEventsDefault = 500

/**
 * Events per `readAll` page of `verify` and `export`, which keep nothing
 * per stream between pages: the replay's reason for small pages is its
 * folding, and on PostgreSQL each page is a round trip.
 */
export const logPageSizeEventsDefault = 5_000

export interface ReplayerOptions {
  readonly registry?: ReadonlyArray<AuditedAggregate>
  readonly findingsListedMax?: number
  /** The domain's states (the default: `streams` then holds what `show` and `at` print) or compact audit states. */
  readonly states?: FoldedStates
  /** Fold only these streams; every event still ends the append before it. The whole log by default. */
  readonly partition?: Partition
  /**
   * Whether a compact replay retires the streams whose state is final (true by
   * default; the tests compare with a replay that does not). A domain replay never does.
   */
  readonly retire?: boolean
}

export interface Replayer {
  /** Folds one recorded event into its stream. Events must come in global order. */
  readonly apply: (record: RecordedEvent) => void
  /**
   * Takes an event the store could not give back (its JSON damaged) in its
   * place in the order: reported undecodable with the store's `why`, and
   * otherwise read as an undecodable event is (it ends the append before
   * it, and its version and recorded time are its stream's).
   */
  readonly applyDamaged: (event: DamagedEvent) => void
  /** The report of everything applied so far (with the checks that need the whole log). */
  readonly report: () => ReplayReport
  readonly streams: TrackedStreams
  /** What this replayer saw, without the rules that span streams (a parallel replay's workers post it). */
  readonly part: () => PartialReport
  /**
   * The streams the rules that span streams ask about and other parts hold
   * (none for a replayer of the whole log): it answers its own itself.
   */
  readonly wanted: () => Array<string>
  /** What those rules read of each of these streams, undefined for one this replayer does not hold. */
  readonly factsOf: (streamIds: ReadonlyArray<string>) => Array<StreamFacts | undefined>
  /** The broken rules that span streams, given the facts of the streams of `wanted()`. */
  readonly crossStream: (factsOf: FactsOf) => Array<CrossStreamFinding>
}

/** Each aggregate's fold: its compact one for a compact replay, where it has one, else the domain's. */
const foldsOf = (entries: ReadonlyArray<AuditedAggregate>, states: FoldedStates | undefined) =>
  new Map<AuditedAggregate, AuditFold>(
    entries.map((entry) => [entry, states === "compact" ? (entry.compact ?? domainFold(entry)) : domainFold(entry)]),
  )

/**
 * A replayer: its streams (heldStreams.ts), what it finds (replayFindings.ts)
 * and the loop that folds each event into them (eventFolder.ts), composed.
 * Every answer but `apply` first checks the append that ended last.
 */
export const makeReplayer = (options: ReplayerOptions = {}): Replayer => {
  const entries = options.registry ?? registry
  const listedMax = options.findingsListedMax ?? findingsListedMaxDefault
  const held = new HeldStreams(entries, foldsOf(entries, options.states), options.partition)
  const findings = new ReplayFindings(listedMax)
  const retiring = options.states === "compact" && options.retire !== false
  const folder = new EventFolder(held, findings, retiring)
  const holds = holderOf(options.partition)
  const part = (): PartialReport => {
    folder.checkDue()
    return partOf(held, findings, folder)
  }
  const crossStream = (factsOf: FactsOf): Array<CrossStreamFinding> => {
    folder.checkDue()
    return crossStreamFindings(held.subjects(), (streamId) =>
      holds(streamId) ? held.factsOf(streamId) : factsOf(streamId),
    )
  }
  return {
    apply: (record) => folder.fold(record, undefined),
    applyDamaged: ({ why, recordedAt, ...place }) =>
      folder.fold({ ...place, data: undefined, metadata: { recordedAt } }, `the store cannot read it: ${why}`),
    streams: held.view(),
    part,
    // Each stream once: only other parts' streams cross to another thread, and each costs a copy there and back.
    // The last append's check first: an index it retires may hold for good, and is not asked about.
    wanted: () => {
      folder.checkDue()
      return [...new Set(wantedStreams(held.subjects()))].filter((streamId) => !holds(streamId))
    },
    factsOf: (streamIds) => streamIds.map(held.factsOf),
    crossStream,
    report: () =>
      assembleReport(
        [part()],
        inReportOrder(crossStream(held.factsOf)),
        entries.map((entry) => entry.kind),
        listedMax,
      ),
  }
}

/** Where a replay stops: after a global position, or at a time (by each event's recordedAt). */
export type Cut =
  | { readonly _tag: "Everything" }
  | { readonly _tag: "Position"; readonly position: GlobalPosition }
  | { readonly _tag: "Time"; readonly atMs: number }

export const everything: Cut = { _tag: "Everything" }

export interface ReplayLogOptions extends ReplayerOptions {
  readonly cut?: Cut
  readonly pageSizeEvents?: number
  /** Called after each page with the number of events read so far. */
  readonly onProgress?: (eventsRead: number) => void
}

/**
 * A page of the log, or the damaged event the read of it stopped at: a store
 * names one whose JSON no longer parses, or whose sealed fields do not open
 * (StoreError's `damagedEvent`), and the replay goes on past it.
 */
const pageOrDamage = (
  options: ReadAllOptions,
): Effect.Effect<Result.Result<ReadonlyArray<RecordedEvent>, DamagedEvent>, StoreError, EventStore> =>
  Effect.flatMap(EventStore, (store) =>
    Effect.matchEffect(store.readAll(options), {
      onSuccess: (page) => Effect.succeed(Result.succeed(page)),
      onFailure: (error) =>
        // Past the read's start, or the replay would read the same event again and again.
        error.damagedEvent !== undefined && error.damagedEvent.globalPosition > options.after
          ? Effect.succeed(Result.fail(error.damagedEvent))
          : Effect.fail(error),
    }),
  )

/**
 * Replays the store's whole log (or the part before a cut) and answers the
 * replayer, whose `report()` and `streams` hold the result. A time cut reads
 * the whole log, since recordedAt need not rise with the position when
 * several processes write; a position cut stops at the position.
 *
 * A damaged event (`pageOrDamage`) fails the read of its whole page: the
 * page is read again one event at a time, so that the events before the
 * damaged one are replayed, the damaged one is reported where it stands
 * (`applyDamaged`), and whole pages go on after it. Every damaged event is
 * reported, not the first alone.
 */
export const replayLog = (options: ReplayLogOptions = {}): Effect.Effect<Replayer, StoreError, EventStore> =>
  Effect.gen(function* () {
    const replayer = makeReplayer(options)
    const cut = options.cut ?? everything
    const pageSizeEvents = options.pageSizeEvents ?? replayPageSizeEventsDefault
    // A worker decodes its own streams' events only; the others' places still end appends and count as read.
    const wholeEventsOf = options.partition === undefined ? undefined : holderOf(options.partition)
    /** Whether a position cut ends before the event at `position`: the replay stops there. */
    const past = (position: GlobalPosition) => cut._tag === "Position" && position > cut.position
    /** Whether a time cut takes an event recorded at `recordedAt` (a later one is passed over: times need not rise). */
    const inCut = (recordedAt: number) => cut._tag !== "Time" || recordedAt <= cut.atMs
    let after = logStart
    let eventsRead = 0
    // One event at a time from a page that held a damaged event, until the damaged event is passed.
    let oneAtATime = false
    while (true) {
      const maxCount = oneAtATime ? 1 : pageSizeEvents
      const read = yield* pageOrDamage({ after, maxCount, ...withoutUndefined({ wholeEventsOf }) })
      if (Result.isFailure(read)) {
        const damaged = read.failure
        if (!oneAtATime && pageSizeEvents > 1) {
          oneAtATime = true
          continue
        }
        if (past(damaged.globalPosition)) return replayer
        if (inCut(damaged.recordedAt)) replayer.applyDamaged(damaged)
        oneAtATime = false
        eventsRead++
        after = damaged.globalPosition
        options.onProgress?.(eventsRead)
        continue
      }
      const page = read.success
      if (page.length === 0) return replayer
      for (const record of page) {
        if (past(record.globalPosition)) return replayer
        if (inCut(record.metadata.recordedAt)) replayer.apply(record)
      }
      eventsRead += page.length
      after = page[page.length - 1]!.globalPosition
      options.onProgress?.(eventsRead)
    }
  })
