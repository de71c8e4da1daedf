/**
 * The replay: every recorded event, in global order, folded into its
 * stream's state with the domain's own `evolve`, and that aggregate's
 * `invariants` checked after every append, on every state a reader can load
 * (CONTRIBUTING.md#how-the-code-reads, "assert what must hold in two
 * places": the decider promised them, the audit asserts them).
 *
 * Memory: one `TrackedStream` per stream (its id, its current state and a few
 * numbers), kept in a Map for the whole replay, since any stream may receive
 * another event later. README.md gives the measured cost per stream. What
 * is bounded: the findings listed (`findingsListedMax` of each kind; the
 * totals still count every one), and one page of events at a time.
 */

import { EventStore, type GlobalPosition, logStart, type RecordedEvent, type StoreError } from "@mizan/eventsourcing"
import type { RefundOrder } from "@mizan/refund"
import { Effect, Result } from "effect"
import { orderIndexRules } from "./orderIndex.ts"
import { refundReservationProblem } from "./refundReservation.ts"
import {
  type AuditedAggregate,
  aggregateOf,
  type BrokenRule,
  type MoneyFigureName,
  moneyFigureNames,
  registry,
} from "./registry.ts"

/** Where an event sits: its stream, its version there, and its place in the global log. */
export interface EventPlace {
  readonly streamId: string
  readonly streamVersion: number
  readonly globalPosition: GlobalPosition
}

/** A rule that broke at this event (it held, or was not broken this way, before it). */
export interface BrokenInvariant extends EventPlace, BrokenRule {
  readonly kind: string
}

export interface UndecodableEvent extends EventPlace {
  readonly type: string
  readonly schemaVersion: number
  readonly reason: string
}

/** An event whose version is not its stream's previous version plus one. */
export interface VersionGap extends EventPlace {
  readonly expectedVersion: number
}

/** Findings of one kind: how many there were, and the first `findingsListedMax` of them. */
export interface Findings<A> {
  readonly total: number
  readonly listed: ReadonlyArray<A>
}

export interface StatusCount {
  readonly status: string
  readonly streams: number
}

export interface KindCount {
  readonly kind: string
  readonly streams: number
  readonly statuses: ReadonlyArray<StatusCount>
}

export interface ReplayReport {
  readonly events: number
  /**
   * Notification attempts recorded: with the notifier recording each attempt
   * after its POST, what a merchant's endpoint received, less the attempts in
   * flight when a notifier died.
   */
  readonly notificationAttempts: number
  readonly streams: number
  readonly firstPosition: GlobalPosition | undefined
  readonly lastPosition: GlobalPosition | undefined
  /** Streams per aggregate and status, in the registry's order; streams no aggregate owns count as "unknown". */
  readonly counts: ReadonlyArray<KindCount>
  /** Exact sums in fils over every stream's state. */
  readonly money: Readonly<Record<MoneyFigureName, bigint>>
  readonly brokenInvariants: Findings<BrokenInvariant>
  readonly undecodable: Findings<UndecodableEvent>
  readonly versionGaps: Findings<VersionGap>
}

/** Whether a replay found nothing broken. */
export const isClean = (report: ReplayReport): boolean =>
  report.brokenInvariants.total === 0 && report.undecodable.total === 0 && report.versionGaps.total === 0

/** One stream as the replay holds it. */
export interface TrackedStream {
  readonly streamId: string
  /** Undefined for a stream no aggregate of the registry owns. */
  readonly aggregate: AuditedAggregate | undefined
  state: unknown
  /** The version of the last event read (0 before the first). */
  version: number
  lastPosition: GlobalPosition
  lastRecordedAt: number
  /** The rules broken after the last event, as `rule + detail` keys; undefined while none is. */
  broken: ReadonlySet<string> | undefined
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

export const unknownKind = "unknown"
/** How many findings of each kind a report lists; the totals count them all. */
export const findingsListedMaxDefault = 1_000
/** Events per `readAll` page. */
export const replayPageSizeEventsDefault = 5_000

export const evolveRule = "the aggregate's evolve accepts every recorded event"

/**
 * Recorded history never runs backwards: within a stream, each append is
 * recorded at or after the one before it. A sandbox test clock moves a
 * merchant's time forward only, and survives restarts, so that this holds.
 */
export const timeRule = "a stream's recorded time never goes back"

export interface ReplayerOptions {
  readonly registry?: ReadonlyArray<AuditedAggregate>
  readonly findingsListedMax?: number
}

class FindingList<A> {
  total = 0
  readonly listed: Array<A> = []
  readonly listedMax: number
  constructor(listedMax: number) {
    this.listedMax = listedMax
  }
  add(finding: A): void {
    this.total++
    if (this.listed.length < this.listedMax) this.listed.push(finding)
  }
}

/**
 * An exact sum of fils over every stream: added as a number while it stays a
 * safe integer, and carried into a bigint before it would not, rather than
 * allocating a BigInt for every stream and figure of a replay's report.
 */
class FilsTotal {
  #carried = 0n
  #sum = 0
  add(fils: number): void {
    // Anything but a whole, non-negative amount takes the bigint path, which refuses what is not whole.
    if (!Number.isSafeInteger(fils) || fils < 0) this.#carried += BigInt(fils)
    else if (this.#sum + fils > Number.MAX_SAFE_INTEGER) {
      this.#carried += BigInt(this.#sum)
      this.#sum = fils
    } else this.#sum += fils
  }
  total(): bigint {
    return this.#carried + BigInt(this.#sum)
  }
}

/**
 * A broken rule is one finding per stream while it stays broken: its detail
 * (a remaining amount, a balance) moves with every later append, and an
 * edited refund was reported again at each of them.
 */
const ruleKey = (broken: BrokenRule): string => broken.rule

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** The streams a replay holds, by id, in the order they were first read. */
export interface TrackedStreams {
  readonly size: number
  readonly get: (streamId: string) => TrackedStream | undefined
  readonly has: (streamId: string) => boolean
  readonly values: () => IterableIterator<TrackedStream>
}

/** 32-bit FNV-1a of a stream id, cut to 30 bits so that it is a small integer on every V8 build. */
const hashOfStreamId = (streamId: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < streamId.length; i++) hash = Math.imul(hash ^ streamId.charCodeAt(i), 0x01000193)
  return hash & 0x3fffffff
}

/**
 * The replay's streams. A `Map` keyed by the ids themselves cost the replay
 * about 0.7 µs an event at half a million streams (README.md, Performance):
 * each event's id is a fresh string from the store, and the Map loads and
 * compares the key strings of its bucket one by one. Keyed by the id's hash,
 * a small integer, the Map compares integers, and one string (or, for the
 * rare ids that share a hash, a few) is compared at the end.
 */
class StreamTable implements TrackedStreams {
  readonly #byHash = new Map<number, TrackedStream | Array<TrackedStream>>()
  readonly #inOrder: Array<TrackedStream> = []

  get size(): number {
    return this.#inOrder.length
  }

  readonly get = (streamId: string): TrackedStream | undefined => {
    const found = this.#byHash.get(hashOfStreamId(streamId))
    if (found === undefined || !Array.isArray(found)) return found?.streamId === streamId ? found : undefined
    return found.find((tracked) => tracked.streamId === streamId)
  }

  readonly has = (streamId: string): boolean => this.get(streamId) !== undefined

  readonly values = (): IterableIterator<TrackedStream> => this.#inOrder.values()

  /** Adds a stream the table does not hold. */
  add(tracked: TrackedStream): void {
    const hash = hashOfStreamId(tracked.streamId)
    const found = this.#byHash.get(hash)
    if (found === undefined) this.#byHash.set(hash, tracked)
    else if (Array.isArray(found)) found.push(tracked)
    else this.#byHash.set(hash, [found, tracked])
    this.#inOrder.push(tracked)
  }
}

export interface Replayer {
  /** Folds one recorded event into its stream. Events must come in global order. */
  readonly apply: (record: RecordedEvent) => void
  /** The report of everything applied so far (with the checks that need the whole log). */
  readonly report: () => ReplayReport
  readonly streams: TrackedStreams
}

export const makeReplayer = (options: ReplayerOptions = {}): Replayer => {
  const entries = options.registry ?? registry
  const listedMax = options.findingsListedMax ?? findingsListedMaxDefault
  const streams = new StreamTable()
  const broken = new FindingList<BrokenInvariant>(listedMax)
  const undecodable = new FindingList<UndecodableEvent>(listedMax)
  const versionGaps = new FindingList<VersionGap>(listedMax)
  let events = 0
  let notificationAttempts = 0
  let firstPosition: GlobalPosition | undefined
  let lastPosition: GlobalPosition | undefined

  const track = (streamId: string): TrackedStream => {
    const aggregate = aggregateOf(streamId, entries)
    const tracked: TrackedStream = {
      streamId,
      aggregate,
      state: aggregate?.initialState,
      version: 0,
      lastPosition: logStart,
      lastRecordedAt: 0,
      broken: undefined,
    }
    streams.add(tracked)
    return tracked
  }

  const placeOf = (tracked: TrackedStream): EventPlace => ({
    streamId: tracked.streamId,
    streamVersion: tracked.version,
    globalPosition: tracked.lastPosition,
  })

  /** Reports the rules broken now that were not broken (in the same way) after the stream's previous append. */
  const checkInvariants = (tracked: TrackedStream, aggregate: AuditedAggregate) => {
    const now = aggregate.invariants(tracked.state)
    if (now.length === 0) {
      tracked.broken = undefined
      return
    }
    const keys = new Set<string>()
    for (const rule of now) {
      const key = ruleKey(rule)
      if (tracked.broken?.has(key) !== true && !keys.has(key))
        broken.add({ ...placeOf(tracked), kind: aggregate.kind, rule: rule.rule, detail: rule.detail })
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
    if (tracked.aggregate !== undefined) checkInvariants(tracked, tracked.aggregate)
  }

  const undecodableAt = (tracked: TrackedStream, record: RecordedEvent, reason: string) =>
    undecodable.add({ ...placeOf(tracked), type: record.type, schemaVersion: record.schemaVersion, reason })

  const apply = (record: RecordedEvent): void => {
    const streamId = record.streamId
    let tracked = due
    // The event continues the due stream's append when it is that stream's, read right after it, at its time (`endsAppend`).
    if (
      tracked === undefined ||
      tracked.streamId !== streamId ||
      record.metadata.recordedAt !== tracked.lastRecordedAt
    ) {
      checkDue()
      tracked = streams.get(streamId) ?? track(streamId)
    }
    events++
    if (record.type === "NotificationAttempted") notificationAttempts++
    firstPosition ??= record.globalPosition
    lastPosition = record.globalPosition
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
    const aggregate = tracked.aggregate
    if (aggregate === undefined) {
      undecodableAt(tracked, record, "no aggregate the audit knows owns this stream")
      return
    }
    const decoded = aggregate.codec.decode(record)
    if (Result.isFailure(decoded)) {
      undecodableAt(tracked, record, decoded.failure)
      return
    }
    try {
      tracked.state = aggregate.evolve(tracked.state, decoded.success)
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

  /** Refund orders that disagree with their reservation (checked on the whole log, or the part read). */
  const refundsApartFromReservations = (): Array<BrokenInvariant> => {
    const found: Array<BrokenInvariant> = []
    const stateOf = (streamId: string) => streams.get(streamId)?.state
    for (const tracked of streams.values()) {
      if (tracked.aggregate?.kind !== "refund") continue
      const problem = refundReservationProblem(tracked.state as RefundOrder.State, stateOf)
      if (problem !== undefined) found.push({ kind: "refund", ...placeOf(tracked), ...problem })
    }
    return found
  }

  /** Order-number indexes that name a stream the log does not hold (checked on the whole log, or the part read). */
  const danglingOrderNumbers = (): Array<BrokenInvariant> => {
    const found: Array<BrokenInvariant> = []
    for (const tracked of streams.values()) {
      const state = tracked.state as { status?: string; streamId?: string } | undefined
      if (tracked.aggregate?.kind !== "orderIndex" || state?.status !== "ISSUED" || state.streamId === undefined)
        continue
      if (!streams.has(state.streamId))
        found.push({
          kind: "orderIndex",
          streamId: tracked.streamId,
          streamVersion: tracked.version,
          globalPosition: tracked.lastPosition,
          rule: orderIndexRules.namesExistingStream,
          detail: `names ${state.streamId}, which holds no event`,
        })
    }
    return found
  }

  const countsAndMoney = () => {
    const totals = moneyFigureNames.map(() => new FilsTotal())
    const byKind = new Map<string, Map<string, number>>(
      [...entries.map((e) => e.kind), unknownKind].map((kind) => [kind, new Map()]),
    )
    for (const tracked of streams.values()) {
      const { aggregate, state } = tracked
      const status = aggregate === undefined ? unknownKind : aggregate.status(state)
      const statuses = byKind.get(aggregate?.kind ?? unknownKind)!
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (aggregate === undefined) continue
      const figures = aggregate.money(state)
      for (let i = 0; i < moneyFigureNames.length; i++) {
        const fils = figures[moneyFigureNames[i]!]
        if (fils !== undefined && fils !== 0) totals[i]!.add(fils)
      }
    }
    const money = Object.fromEntries(moneyFigureNames.map((name, i) => [name, totals[i]!.total()])) as Record<
      MoneyFigureName,
      bigint
    >
    const counts: Array<KindCount> = []
    for (const [kind, statuses] of byKind) {
      if (statuses.size === 0) continue
      const listed = [...statuses].map(([status, n]) => ({ status, streams: n }))
      listed.sort((a, b) => a.status.localeCompare(b.status))
      counts.push({ kind, streams: listed.reduce((sum, s) => sum + s.streams, 0), statuses: listed })
    }
    return { counts, money }
  }

  const report = (): ReplayReport => {
    checkDue()
    const dangling = [...danglingOrderNumbers(), ...refundsApartFromReservations()]
    const allBroken = new FindingList<BrokenInvariant>(listedMax)
    for (const finding of broken.listed) allBroken.add(finding)
    allBroken.total = broken.total
    for (const finding of dangling) allBroken.add(finding)
    return {
      events,
      notificationAttempts,
      streams: streams.size,
      firstPosition,
      lastPosition,
      ...countsAndMoney(),
      brokenInvariants: { total: allBroken.total, listed: allBroken.listed },
      undecodable: { total: undecodable.total, listed: undecodable.listed },
      versionGaps: { total: versionGaps.total, listed: versionGaps.listed },
    }
  }

  return { apply, report, streams }
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
 * Replays the store's whole log (or the part before a cut) and answers the
 * replayer, whose `report()` and `streams` hold the result. A time cut reads
 * the whole log, since recordedAt need not rise with the position when
 * several processes write; a position cut stops at the position.
 */
export const replayLog = (options: ReplayLogOptions = {}): Effect.Effect<Replayer, StoreError, EventStore> =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const replayer = makeReplayer(options)
    const cut = options.cut ?? everything
    const maxCount = options.pageSizeEvents ?? replayPageSizeEventsDefault
    let after = logStart
    let read = 0
    while (true) {
      const page = yield* store.readAll({ after, maxCount })
      if (page.length === 0) return replayer
      for (const record of page) {
        if (cut._tag === "Position" && record.globalPosition > cut.position) return replayer
        if (cut._tag !== "Time" || record.metadata.recordedAt <= cut.atMs) replayer.apply(record)
      }
      read += page.length
      after = page[page.length - 1]!.globalPosition
      options.onProgress?.(read)
    }
  })
