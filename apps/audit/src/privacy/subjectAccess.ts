/**
 * `access`: what the store holds on one data subject, for a subject access
 * request (docs/architecture.md#sealed-personal-data). Every event that
 * holds data sealed for the subject names its keyed id in its `$sealed`
 * entries, so the whole log is read once, as stored, and each such entry
 * is opened alone: the subject's own fields, never another subject's that
 * shares the event. A forgotten subject's fields open as `[forgotten]`.
 * Memory: the events found, one page of the log.
 */
import {
  EventStore,
  equalitySubjectId,
  forgetsRecordedOf,
  logStart,
  makeSealer,
  type SealedEntry,
  type Sealer,
  SubjectKeys,
  sealedField,
  subjectValuesOf,
} from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { Effect } from "effect"
import { AuditError } from "../common/stores.ts"
import { logPageSizeEventsDefault } from "../replay/replay.ts"

/** Whom an access request or a forget names: a subject by its value, or the subject of a kind that one stream's events name by no value. */
export type SubjectTarget =
  | { readonly _tag: "ByValue"; readonly kind: string; readonly value: string }
  | { readonly _tag: "OfStream"; readonly kind: string; readonly streamId: string }

/** One event that holds the subject's data, with that data opened (the subject's fields alone). */
export interface HeldEvent {
  readonly streamId: string
  readonly streamVersion: number
  readonly globalPosition: bigint
  readonly recordedAt: number
  readonly type: string
  readonly data: Record<string, unknown>
}

export interface SubjectAccess {
  /** The subject's keyed id, as `forget` names it: the one whose data was found, else the one forgotten, else the last looked for. */
  readonly subjectId: string
  readonly events: ReadonlyArray<HeldEvent>
  /** Every forget recorded of the subject, oldest first. */
  readonly forgets: ReadonlyArray<{ readonly at: number; readonly by: string }>
}

/** The entries of stored `data` sealed for one of `subjectIds`. */
const entriesOf = (data: unknown, subjectIds: ReadonlySet<string>): ReadonlyArray<SealedEntry> => {
  const entries = typeof data === "object" && data !== null ? (data as Record<string, unknown>)[sealedField] : undefined
  return Array.isArray(entries)
    ? (entries as ReadonlyArray<SealedEntry>).filter((entry) => subjectIds.has(entry?.subject))
    : []
}

/** Every forget recorded of `subjectId`, with the subject it names. */
const forgetsOf = (subjectId: string) =>
  Effect.flatMap(EventStore, (store) =>
    Effect.map(forgetsRecordedOf(store, subjectId), (forgets) => forgets.map(({ at, by }) => ({ subjectId, at, by }))),
  )

/** The ids `target` may name (a value in clear names its SHA-256's subject too, as forget does). */
const subjectIdsOf = (sealer: Sealer, target: SubjectTarget): ReadonlyArray<string> =>
  target._tag === "ByValue"
    ? subjectValuesOf(target.value).map((value) => sealer.subjectIdOf(target.kind, value))
    : [sealer.streamSubjectIdOf(target.kind, target.streamId)]

/**
 * What the store holds on `target`, its data opened with the master key.
 * Refuses a store that never sealed anything (its key table holds no secret
 * for keyed ids): its personal data is in clear, under no subject to find,
 * and making the secret would write to the store.
 */
export const subjectAccess = (
  target: SubjectTarget,
  options: { readonly pageSizeEvents?: number; readonly storeName: string },
) =>
  Effect.gen(function* () {
    const keys = yield* SubjectKeys
    if ((yield* keys.liveKeyOf(equalitySubjectId)) === undefined)
      return yield* new AuditError({
        detail: `${options.storeName} seals no personal data (written before sealing, or without a key table): access finds a subject by its sealed fields only; seal the store first (import --seal)`,
      })
    const sealer = yield* makeSealer(mizanSealingPlan)
    const store = yield* EventStore
    const subjectIds = subjectIdsOf(sealer, target)
    const wanted = new Set(subjectIds)
    const events: Array<HeldEvent> = []
    const found = new Set<string>()
    let after = logStart
    while (true) {
      const page = yield* store.readAll({ after, maxCount: options.pageSizeEvents ?? logPageSizeEventsDefault })
      if (page.length === 0) break
      for (const record of page) {
        const entries = entriesOf(record.data, wanted)
        if (entries.length === 0) continue
        for (const entry of entries) found.add(entry.subject)
        // The subject's entries alone: what opens is its fields, and no other subject's of the same event.
        const data = yield* sealer.open(record.streamId, record.id, { [sealedField]: entries })
        events.push({
          streamId: record.streamId,
          streamVersion: record.streamVersion,
          globalPosition: record.globalPosition,
          recordedAt: record.metadata.recordedAt,
          type: record.type,
          data: data as Record<string, unknown>,
        })
      }
      after = page.at(-1)!.globalPosition
    }
    const forgets = (yield* Effect.forEach(subjectIds, forgetsOf)).flat().sort((a, b) => a.at - b.at)
    const subjectId = subjectIds.find((id) => found.has(id)) ?? forgets[0]?.subjectId ?? subjectIds.at(-1)!
    const access: SubjectAccess = { subjectId, events, forgets: forgets.map(({ at, by }) => ({ at, by })) }
    return access
  })
