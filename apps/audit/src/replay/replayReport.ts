/**
 * What a replay reports, and how it is put together from the part each
 * replayer saw: one replayer's part, or the parts of the workers of a
 * parallel replay (parallelReplay.ts), each holding the streams of one hash
 * range. Both go through `assembleReport`, so a parallel replay reports what
 * one replayer would, line for line: findings in log order, the first
 * `listedMax` of each kind, every count and sum.
 */

import type { GlobalPosition } from "@mizan/eventsourcing"
import { type MoneyFigureName, moneyFigureNames } from "../model/auditFold.ts"
import type { BrokenRule } from "../model/registry.ts"

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
  /** The least position replayed (the first, in a log read in order). */
  readonly firstPosition: GlobalPosition | undefined
  /** The greatest position replayed (the last, in a log read in order). */
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

export const unknownKind = "unknown"

export class FindingList<A> {
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
export class FilsTotal {
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
 * What one replayer saw of the log: plain data, so that a worker can post it.
 * Findings are listed in log order (the first `listedMax` of each kind).
 */
export interface PartialReport {
  readonly events: number
  readonly notificationAttempts: number
  readonly streams: number
  readonly firstPosition: GlobalPosition | undefined
  readonly lastPosition: GlobalPosition | undefined
  /** Streams per aggregate kind and status. */
  readonly statusCounts: ReadonlyArray<{ readonly kind: string; readonly status: string; readonly streams: number }>
  /** Each of `moneyFigureNames`' sums, in their order. */
  readonly money: ReadonlyArray<bigint>
  readonly brokenInvariants: Findings<BrokenInvariant>
  readonly undecodable: Findings<UndecodableEvent>
  readonly versionGaps: Findings<VersionGap>
}

/** Findings of several parts, each in log order, merged into log order (a part's own order kept at one position). */
export const mergeFindings = <A extends EventPlace>(
  parts: ReadonlyArray<Findings<A>>,
  listedMax: number,
): FindingList<A> => {
  const merged = new FindingList<A>(listedMax)
  const next = parts.map(() => 0)
  while (merged.listed.length < listedMax) {
    let from = -1
    for (let p = 0; p < parts.length; p++) {
      const candidate = parts[p]!.listed[next[p]!]
      if (candidate === undefined) continue
      if (from === -1 || candidate.globalPosition < parts[from]!.listed[next[from]!]!.globalPosition) from = p
    }
    if (from === -1) break
    merged.add(parts[from]!.listed[next[from]!]!)
    next[from]!++
  }
  merged.total = parts.reduce((sum, part) => sum + part.total, 0)
  return merged
}

const earliest = (positions: ReadonlyArray<GlobalPosition | undefined>) =>
  positions.reduce<GlobalPosition | undefined>(
    (a, b) => (a === undefined || (b !== undefined && b < a) ? b : a),
    undefined,
  )
const latest = (positions: ReadonlyArray<GlobalPosition | undefined>) =>
  positions.reduce<GlobalPosition | undefined>(
    (a, b) => (a === undefined || (b !== undefined && b > a) ? b : a),
    undefined,
  )

/** Streams per kind (in `kinds`' order, then "unknown") and status (alphabetical); kinds without streams left out. */
const countsOf = (parts: ReadonlyArray<PartialReport>, kinds: ReadonlyArray<string>): Array<KindCount> => {
  const byKind = new Map<string, Map<string, number>>([...kinds, unknownKind].map((kind) => [kind, new Map()]))
  for (const part of parts)
    for (const { kind, status, streams } of part.statusCounts) {
      const statuses = byKind.get(kind) ?? new Map<string, number>()
      byKind.set(kind, statuses)
      statuses.set(status, (statuses.get(status) ?? 0) + streams)
    }
  const counts: Array<KindCount> = []
  for (const [kind, statuses] of byKind) {
    if (statuses.size === 0) continue
    const listed = [...statuses].map(([status, n]) => ({ status, streams: n }))
    listed.sort((a, b) => a.status.localeCompare(b.status))
    counts.push({ kind, streams: listed.reduce((sum, s) => sum + s.streams, 0), statuses: listed })
  }
  return counts
}

/**
 * The report of the whole log from the parts of it, and the findings of the
 * rules that span streams (checked once the whole log is read, listed after
 * the others while there is room).
 */
export const assembleReport = (
  parts: ReadonlyArray<PartialReport>,
  crossStream: ReadonlyArray<BrokenInvariant>,
  kinds: ReadonlyArray<string>,
  listedMax: number,
): ReplayReport => {
  const broken = mergeFindings(
    parts.map((part) => part.brokenInvariants),
    listedMax,
  )
  const totalBroken = broken.total
  for (const finding of crossStream) broken.add(finding)
  broken.total = totalBroken + crossStream.length
  const undecodable = mergeFindings(
    parts.map((part) => part.undecodable),
    listedMax,
  )
  const versionGaps = mergeFindings(
    parts.map((part) => part.versionGaps),
    listedMax,
  )
  const money = Object.fromEntries(
    moneyFigureNames.map((name, i) => [name, parts.reduce((sum, part) => sum + part.money[i]!, 0n)]),
  ) as Record<MoneyFigureName, bigint>
  return {
    events: parts.reduce((sum, part) => sum + part.events, 0),
    notificationAttempts: parts.reduce((sum, part) => sum + part.notificationAttempts, 0),
    streams: parts.reduce((sum, part) => sum + part.streams, 0),
    firstPosition: earliest(parts.map((part) => part.firstPosition)),
    lastPosition: latest(parts.map((part) => part.lastPosition)),
    counts: countsOf(parts, kinds),
    money,
    brokenInvariants: { total: broken.total, listed: broken.listed },
    undecodable: { total: undecodable.total, listed: undecodable.listed },
    versionGaps: { total: versionGaps.total, listed: versionGaps.listed },
  }
}
