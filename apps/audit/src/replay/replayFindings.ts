/**
 * What a replay finds wrong as it folds, each kind in a list of its own
 * (`findingsListedMax` listed, every one counted): a rule broken after an
 * append, an event it cannot decode or fold, a gap in a stream's versions.
 */

import type { RecordedEvent } from "@mizan/eventsourcing"
import type { AuditFold } from "../model/auditFold.ts"
import { type BrokenInvariant, FindingList, type UndecodableEvent, type VersionGap } from "./replayReport.ts"
import { placeOf, type TrackedStream } from "./tracked.ts"

export const evolveRule = "the aggregate's evolve accepts every recorded event"

/**
 * Recorded history never runs backwards: within a stream, each append is
 * recorded at or after the one before it. A sandbox test clock moves a
 * merchant's time forward only, and survives restarts, so that this holds.
 */
export const timeRule = "a stream's recorded time never goes back"

/**
 * A broken rule is one finding per stream while it stays broken: its detail
 * (a remaining amount, a balance) moves with every later append, and an
 * edited refund was reported again at each of them.
 */
const ruleKey = (broken: { readonly rule: string }): string => broken.rule

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export class ReplayFindings {
  readonly broken: FindingList<BrokenInvariant>
  readonly undecodable: FindingList<UndecodableEvent>
  readonly versionGaps: FindingList<VersionGap>

  constructor(listedMax: number) {
    this.broken = new FindingList<BrokenInvariant>(listedMax)
    this.undecodable = new FindingList<UndecodableEvent>(listedMax)
    this.versionGaps = new FindingList<VersionGap>(listedMax)
  }

  /** Reports the rules broken now that were not broken (in the same way) after the stream's previous append. */
  checkInvariants(tracked: TrackedStream, kind: string, fold: AuditFold): void {
    const now = fold.invariants(tracked.state)
    if (now.length === 0) {
      tracked.broken = undefined
      return
    }
    const keys = new Set<string>()
    for (const rule of now) {
      const key = ruleKey(rule)
      if (tracked.broken?.has(key) !== true && !keys.has(key))
        this.broken.add({ ...placeOf(tracked), kind, rule: rule.rule, detail: rule.detail })
      keys.add(key)
    }
    tracked.broken = keys
  }

  /** Reports what `record` breaks of its stream's order (its version, its recorded time) before the stream moves to it. */
  checkOrder(tracked: TrackedStream, record: RecordedEvent): void {
    if (record.streamVersion !== tracked.version + 1)
      this.versionGaps.add({
        streamId: record.streamId,
        streamVersion: record.streamVersion,
        globalPosition: record.globalPosition,
        expectedVersion: tracked.version + 1,
      })
    if (record.metadata.recordedAt < tracked.lastRecordedAt)
      this.broken.add({
        streamId: record.streamId,
        streamVersion: record.streamVersion,
        globalPosition: record.globalPosition,
        kind: tracked.aggregate?.kind ?? "unknown",
        rule: timeRule,
        detail: `recorded at ${new Date(record.metadata.recordedAt).toISOString()}, after an event recorded at ${new Date(tracked.lastRecordedAt).toISOString()}`,
      })
  }

  undecodableAt(tracked: TrackedStream, record: RecordedEvent, reason: string): void {
    this.undecodable.add({ ...placeOf(tracked), type: record.type, schemaVersion: record.schemaVersion, reason })
  }

  /** Reports an event the aggregate's `evolve` threw at. */
  evolveFailed(tracked: TrackedStream, kind: string, record: RecordedEvent, error: unknown): void {
    this.broken.add({ ...placeOf(tracked), kind, rule: evolveRule, detail: `${record.type}: ${errorText(error)}` })
  }
}
