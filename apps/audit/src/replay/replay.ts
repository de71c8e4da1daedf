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
import { type AuditedAggregate, aggregateOf, domainFold, moneyFigureNames, registry } from "../model/registry.ts"
import {
  askingKinds,
  type CrossStreamFinding,
  crossStreamFindings,
  type FactsOf,
  factsOfState,
  holdsForGood,
  inReportOrder,
  type StreamFacts,
  wantedStreams,
} from "./crossStream.ts"
import { RecentIds } from "./recentIds.ts"
import {
  assembleReport,
  type BrokenInvariant,
  type EventPlace,
  FilsTotal,
  FindingList,
  type PartialReport,
  type ReplayReport,
  type UndecodableEvent,
  unknownKind,
  type VersionGap,
} from "./replayReport.ts"
import { RetiredStreams } from "./retiredStreams.ts"
import { hashOfStreamId, StreamTable, workerOfHash, workerOfStream } from "./streamTable.ts"

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

/** One stream as the replay holds it. */
export interface TrackedStream {
  readonly streamId: string
  /** Undefined for a stream no aggregate of the registry owns. */
  readonly aggregate: AuditedAggregate | undefined
  /** The fold its state is made by: the aggregate's domain fold or its compact one. */
  readonly fold: AuditFold | undefined
  state: unknown
  /** The version of the last event read (0 before the first). */
  version: number
  lastPosition: GlobalPosition
  lastRecordedAt: number
  /** The rules broken after the last event, as `rule + detail` keys; undefined while none is. */
  broken: ReadonlySet<string> | undefined
  /** Events read (by every replayer of the log) before this stream's first. */
  readonly firstRead: number
}

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

export const evolveRule = "the aggregate's evolve accepts every recorded event"

/**
 * Recorded history never runs backwards: within a stream, each append is
 * recorded at or after the one before it. A sandbox test clock moves a
 * merchant's time forward only, and survives restarts, so that this holds.
 */
export const timeRule = "a stream's recorded time never goes back"

/** The share of the streams one worker of a parallel replay holds: those whose id hashes to `index` modulo `count`. */
export interface Partition {
  readonly index: number
  readonly count: number
}

/** Whether the replayer of `partition` folds a stream: every stream without one. */
/**
 * How many of other parts' streams a part remembers as read lately (`RecentIds`):
 * enough for an index to find its stream among the appends of other writers
 * that came between the two, few enough to search at each index.
 */
const readElsewhereRemembered = 32

const holderOf =
  (partition: Partition | undefined) =>
  (streamId: string): boolean =>
    partition === undefined || workerOfStream(streamId, partition.count) === partition.index

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

/**
 * A broken rule is one finding per stream while it stays broken: its detail
 * (a remaining amount, a balance) moves with every later append, and an
 * edited refund was reported again at each of them.
 */
const ruleKey = (broken: { readonly rule: string }): string => broken.rule

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * The streams a replay holds, by id, in the order they were first read. A
 * retired stream is answered as a `TrackedStream` made for the asking.
 */
export interface TrackedStreams {
  /** Every stream read, open or retired. */
  readonly size: number
  /** The streams a compact replay has retired (and not revived). */
  readonly retired: number
  readonly get: (streamId: string) => TrackedStream | undefined
  readonly has: (streamId: string) => boolean
  readonly isRetired: (streamId: string) => boolean
  readonly values: () => IterableIterator<TrackedStream>
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

export const makeReplayer = (options: ReplayerOptions = {}): Replayer => {
  const entries = options.registry ?? registry
  const listedMax = options.findingsListedMax ?? findingsListedMaxDefault
  const folds = new Map<AuditedAggregate, AuditFold>(
    entries.map((entry) => [
      entry,
      options.states === "compact" ? (entry.compact ?? domainFold(entry)) : domainFold(entry),
    ]),
  )
  const partition = options.partition
  const holds = holderOf(partition)
  const retiring = options.states === "compact" && options.retire !== false
  const retired = new RetiredStreams()
  const streams = new StreamTable<TrackedStream>((index) => retired.idOf(index))
  /** The retired streams' status counts and money, kept as they retire (and taken back if one revives). */
  const retiredCounts = new Map<AuditedAggregate, Map<string, { kind: string; status: string; streams: number }>>()
  const retiredMoney = moneyFigureNames.map(() => new FilsTotal())
  const broken = new FindingList<BrokenInvariant>(listedMax)
  const undecodable = new FindingList<UndecodableEvent>(listedMax)
  const versionGaps = new FindingList<VersionGap>(listedMax)
  let read = 0
  let events = 0
  let notificationAttempts = 0
  let firstPosition: GlobalPosition | undefined
  let lastPosition: GlobalPosition | undefined

  const track = (streamId: string, hash: number): TrackedStream => {
    const aggregate = aggregateOf(streamId, entries)
    const fold = aggregate === undefined ? undefined : folds.get(aggregate)
    const tracked: TrackedStream = {
      streamId,
      aggregate,
      fold,
      state: fold?.initial(),
      version: 0,
      lastPosition: logStart,
      lastRecordedAt: 0,
      broken: undefined,
      firstRead: read,
    }
    streams.add(tracked, hash)
    return tracked
  }

  /** Adds a retired stream's status and money to the running totals (`sign` 1), or takes them back (-1). */
  const countRetired = (aggregate: AuditedAggregate, fold: AuditFold, state: unknown, sign: 1 | -1) => {
    const status = fold.status(state)
    // By aggregate, then status: a key string made per retired stream was most of what retiring allocated.
    let byStatus = retiredCounts.get(aggregate)
    if (byStatus === undefined) {
      byStatus = new Map()
      retiredCounts.set(aggregate, byStatus)
    }
    const count = byStatus.get(status)
    if (count === undefined) byStatus.set(status, { kind: aggregate.kind, status, streams: sign })
    else count.streams += sign
    const figures = fold.money(state)
    for (let i = 0; i < moneyFigureNames.length; i++) {
      const fils = figures[moneyFigureNames[i]!]
      if (fils !== undefined && fils !== 0) retiredMoney[i]!.add(sign * fils)
    }
  }

  /** Other parts' streams read last: most indexes name one of these when their part does not hold the stream. */
  const readElsewhere = new RecentIds(readElsewhereRemembered)

  /**
   * Whether the log read so far holds a stream: one this replayer holds (the
   * id hashed once, for the part and the table), or one of another part's
   * read lately. False for another part's stream read longer ago: the rules
   * then ask that part at the end, as for a stream not read at all.
   */
  const readAlready = (streamId: string): boolean => {
    const hash = hashOfStreamId(streamId)
    return partition === undefined || workerOfHash(hash, partition.count) === partition.index
      ? streams.getHashed(streamId, hash) !== undefined
      : readElsewhere.has(streamId)
  }

  /** Retires an open stream whose state is final: an append left it so, and no rule of it is broken. */
  const retire = (tracked: TrackedStream, aggregate: AuditedAggregate, fold: AuditFold) => {
    countRetired(aggregate, fold, tracked.state, 1)
    const index = retired.add(tracked, aggregate, holdsForGood(aggregate.kind, tracked.state, readAlready))
    streams.replace(tracked.streamId, hashOfStreamId(tracked.streamId), index)
  }

  /** A retired stream open again, as it was when it retired: an event came after its end. */
  const revive = (index: number, hash: number): TrackedStream => {
    const { aggregate, ...fields } = retired.revive(index)
    const fold = folds.get(aggregate)!
    countRetired(aggregate, fold, fields.state, -1)
    const tracked: TrackedStream = { ...fields, aggregate, fold, broken: undefined }
    streams.replace(tracked.streamId, hash, tracked)
    return tracked
  }

  /** A retired stream as a `TrackedStream`, for the library's readers. */
  const retiredView = (index: number): TrackedStream => {
    const { aggregate, ...fields } = retired.fieldsOf(index)
    return { ...fields, aggregate, fold: folds.get(aggregate), broken: undefined }
  }

  const placeOf = (tracked: TrackedStream): EventPlace => ({
    streamId: tracked.streamId,
    streamVersion: tracked.version,
    globalPosition: tracked.lastPosition,
  })

  /** Reports the rules broken now that were not broken (in the same way) after the stream's previous append. */
  const checkInvariants = (tracked: TrackedStream, kind: string, fold: AuditFold) => {
    const now = fold.invariants(tracked.state)
    if (now.length === 0) {
      tracked.broken = undefined
      return
    }
    const keys = new Set<string>()
    for (const rule of now) {
      const key = ruleKey(rule)
      if (tracked.broken?.has(key) !== true && !keys.has(key))
        broken.add({ ...placeOf(tracked), kind, rule: rule.rule, detail: rule.detail })
      keys.add(key)
    }
    tracked.broken = keys
  }

  /**
   * The stream whose invariants are due. They are checked once an append
   * ends: an append's events sit side by side in the log (one stream, one
   * recorded time), and only the state after a whole append is one a
   * reader can ever load (an append is atomic). So a decision of two events
   * (a wallet transfer placed, then failed at once) is judged on the state it
   * leaves, not on the state between its events (see `endsAppend`).
   */
  let due: TrackedStream | undefined

  const checkDue = () => {
    const tracked = due
    if (tracked === undefined) return
    due = undefined
    const { aggregate, fold } = tracked
    if (aggregate === undefined || fold === undefined) return
    checkInvariants(tracked, aggregate.kind, fold)
    // A stream with a rule broken stays open: it keeps the rules it broke (a damaged log only).
    if (retiring && tracked.broken === undefined && fold.ended?.(tracked.state) === true)
      retire(tracked, aggregate, fold)
  }

  const undecodableAt = (tracked: TrackedStream, record: RecordedEvent, reason: string) =>
    undecodable.add({ ...placeOf(tracked), type: record.type, schemaVersion: record.schemaVersion, reason })

  /** Folds `record`, or reports it undecodable for `damage` (an event the store could not give back). */
  const foldEvent = (record: RecordedEvent, damage: string | undefined): void => {
    const streamId = record.streamId
    let tracked = due
    read++
    // The event continues the due stream's append when it is that stream's, read right after it, at its time (`endsAppend`).
    if (
      tracked === undefined ||
      tracked.streamId !== streamId ||
      record.metadata.recordedAt !== tracked.lastRecordedAt
    ) {
      checkDue()
      const hash = hashOfStreamId(streamId)
      // Another worker's stream: it ended the due append, and is that worker's to fold.
      if (partition !== undefined && workerOfHash(hash, partition.count) !== partition.index) {
        readElsewhere.add(streamId)
        return
      }
      const slot = streams.getHashed(streamId, hash)
      tracked = slot === undefined ? track(streamId, hash) : typeof slot === "number" ? revive(slot, hash) : slot
    }
    events++
    if (record.type === "NotificationAttempted") notificationAttempts++
    // The least and the greatest position replayed: the same as the first and the last of a log read in order,
    // and what a replay in parts merges to when a damaged log is not.
    if (firstPosition === undefined || record.globalPosition < firstPosition) firstPosition = record.globalPosition
    if (lastPosition === undefined || record.globalPosition > lastPosition) lastPosition = record.globalPosition
    if (record.streamVersion !== tracked.version + 1)
      versionGaps.add({
        streamId,
        streamVersion: record.streamVersion,
        globalPosition: record.globalPosition,
        expectedVersion: tracked.version + 1,
      })
    if (record.metadata.recordedAt < tracked.lastRecordedAt)
      broken.add({
        streamId,
        streamVersion: record.streamVersion,
        globalPosition: record.globalPosition,
        kind: tracked.aggregate?.kind ?? "unknown",
        rule: timeRule,
        detail: `recorded at ${new Date(record.metadata.recordedAt).toISOString()}, after an event recorded at ${new Date(tracked.lastRecordedAt).toISOString()}`,
      })
    tracked.version = record.streamVersion
    tracked.lastPosition = record.globalPosition
    tracked.lastRecordedAt = record.metadata.recordedAt
    if (damage !== undefined) {
      undecodableAt(tracked, record, damage)
      return
    }
    const { aggregate, fold } = tracked
    if (aggregate === undefined || fold === undefined) {
      undecodableAt(tracked, record, "no aggregate the audit knows owns this stream")
      return
    }
    const decoded = aggregate.codec.decode(record)
    if (Result.isFailure(decoded)) {
      undecodableAt(tracked, record, decoded.failure)
      return
    }
    try {
      tracked.state = fold.evolve(tracked.state, decoded.success)
    } catch (error) {
      broken.add({
        ...placeOf(tracked),
        kind: aggregate.kind,
        rule: evolveRule,
        detail: `${record.type}: ${errorText(error)}`,
      })
      return
    }
    due = tracked
  }

  /**
   * The streams held, open or retired, whose rules span streams (`askingKinds`),
   * as those rules read them (they order what they find). The others, most of
   * the streams, are passed over before an object is made of them.
   */
  const subjects = function* () {
    for (const tracked of streams.open()) {
      if (tracked.aggregate === undefined || !askingKinds.has(tracked.aggregate.kind)) continue
      yield {
        ...placeOf(tracked),
        kind: tracked.aggregate.kind,
        state: tracked.state,
        firstRead: tracked.firstRead,
      }
    }
    for (const index of retired.indexes()) {
      if (!askingKinds.has(retired.kindOf(index)) || retired.crossStreamHolds(index)) continue
      const stream = retired.fieldsOf(index)
      yield {
        streamId: stream.streamId,
        streamVersion: stream.version,
        globalPosition: stream.lastPosition,
        kind: stream.aggregate.kind,
        state: stream.state,
        firstRead: stream.firstRead,
      }
    }
  }

  const part = (): PartialReport => {
    checkDue()
    const totals = moneyFigureNames.map(() => new FilsTotal())
    const counted = new Map<string, { kind: string; status: string; streams: number }>()
    for (const byStatus of retiredCounts.values())
      for (const count of byStatus.values())
        if (count.streams > 0) counted.set(`${count.kind}\u0000${count.status}`, { ...count })
    for (const tracked of streams.open()) {
      const { aggregate, fold, state } = tracked
      const kind = aggregate?.kind ?? unknownKind
      const status = fold === undefined ? unknownKind : fold.status(state)
      const key = `${kind}\u0000${status}`
      const count = counted.get(key)
      if (count === undefined) counted.set(key, { kind, status, streams: 1 })
      else count.streams++
      if (fold === undefined) continue
      const figures = fold.money(state)
      for (let i = 0; i < moneyFigureNames.length; i++) {
        const fils = figures[moneyFigureNames[i]!]
        if (fils !== undefined && fils !== 0) totals[i]!.add(fils)
      }
    }
    return {
      events,
      notificationAttempts,
      streams: streams.size,
      firstPosition,
      lastPosition,
      statusCounts: [...counted.values()],
      money: totals.map((total, i) => total.total() + retiredMoney[i]!.total()),
      brokenInvariants: { total: broken.total, listed: [...broken.listed] },
      undecodable: { total: undecodable.total, listed: [...undecodable.listed] },
      versionGaps: { total: versionGaps.total, listed: [...versionGaps.listed] },
    }
  }

  const factsOfStream = (streamId: string): StreamFacts | undefined => {
    const slot = streams.get(streamId)
    if (slot === undefined) return undefined
    if (typeof slot !== "number") return factsOfState(slot.aggregate?.kind, slot.state)
    const stream = retired.fieldsOf(slot)
    return factsOfState(stream.aggregate.kind, stream.state)
  }

  const trackedOf = (streamId: string): TrackedStream | undefined => {
    const slot = streams.get(streamId)
    return typeof slot === "number" ? retiredView(slot) : slot
  }

  const tracked: TrackedStreams = {
    get size() {
      return streams.size
    },
    get retired() {
      return retired.size
    },
    get: trackedOf,
    has: (streamId) => streams.get(streamId) !== undefined,
    isRetired: (streamId) => typeof streams.get(streamId) === "number",
    values: () => {
      const all = [...streams.open()]
      if (retired.size === 0) return all.values()
      for (const index of retired.indexes()) all.push(retiredView(index))
      return all.sort((a, b) => a.firstRead - b.firstRead).values()
    },
  }

  const crossStream = (factsOf: FactsOf) => {
    checkDue()
    return crossStreamFindings(subjects(), (streamId) =>
      holds(streamId) ? factsOfStream(streamId) : factsOf(streamId),
    )
  }

  return {
    apply: (record) => foldEvent(record, undefined),
    applyDamaged: ({ why, recordedAt, ...place }) =>
      foldEvent({ ...place, data: undefined, metadata: { recordedAt } }, `the store cannot read it: ${why}`),
    streams: tracked,
    part,
    // Each stream once: only other parts' streams cross to another thread, and each costs a copy there and back.
    // The last append's check first: an index it retires may hold for good, and is not asked about.
    wanted: () => {
      checkDue()
      return [...new Set(wantedStreams(subjects()))].filter((streamId) => !holds(streamId))
    },
    factsOf: (streamIds) => streamIds.map(factsOfStream),
    crossStream,
    report: () =>
      assembleReport(
        [part()],
        inReportOrder(crossStream(factsOfStream)),
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
