/**
 * One stream's history, event by event, with the state after each: what
 * `show` prints, and what `at --stream` cuts short. The same fold as the
 * replay (the domain's codec, `evolve` and `invariants`), on one stream.
 */

import { EventStore, type RecordedEvent, type StoreError } from "@mizan/eventsourcing"
import { withoutUndefined } from "@mizan/kernel"
import { Effect, Result } from "effect"
import { type AuditedAggregate, aggregateOf, type BrokenRule, registry } from "../model/registry.ts"
import { type Cut, endsAppend, everything, evolveRule, unknownKind } from "./replay.ts"

export interface TimelineStep {
  readonly record: RecordedEvent
  /** Why the event did not decode (its state is then the one before it). */
  readonly failure?: string
  readonly state: unknown
  readonly status: string
  /** The rules broken once this event's append is complete (empty in the middle of an append). */
  readonly broken: ReadonlyArray<BrokenRule>
}

export interface Timeline {
  readonly streamId: string
  readonly kind: string
  readonly steps: ReadonlyArray<TimelineStep>
}

/** Events per `readStream` page. */
export const streamPageSizeEvents = 1_000

/** Whether a recorded event happened at or before the cut. */
export const withinCut = (cut: Cut, record: RecordedEvent): boolean =>
  cut._tag === "Everything" ||
  (cut._tag === "Position" ? record.globalPosition <= cut.position : record.metadata.recordedAt <= cut.atMs)

const readUpTo = Effect.fn("Audit.readUpTo")(function* (streamId: string, cut: Cut) {
  const store = yield* EventStore
  const records: Array<RecordedEvent> = []
  while (true) {
    const page = yield* store.readStream(streamId, {
      fromVersion: (records.at(-1)?.streamVersion ?? 0) + 1,
      maxCount: streamPageSizeEvents,
    })
    for (const record of page) {
      // A stream's events are recorded in version order, so the first one past the cut ends it.
      if (!withinCut(cut, record)) return records
      records.push(record)
    }
    if (page.length < streamPageSizeEvents) return records
  }
})

const step = (aggregate: AuditedAggregate, state: unknown, record: RecordedEvent) => {
  const decoded = aggregate.codec.decode(record)
  if (Result.isFailure(decoded)) return { state, failure: decoded.failure }
  try {
    return { state: aggregate.evolve(state, decoded.success) }
  } catch (error) {
    return { state, failure: `${evolveRule}: ${error instanceof Error ? error.message : String(error)}` }
  }
}

/** The stream's events up to the cut, each with the state after it. */
export const timelineOf = (
  streamId: string,
  cut: Cut = everything,
  entries: ReadonlyArray<AuditedAggregate> = registry,
): Effect.Effect<Timeline, StoreError, EventStore> =>
  Effect.map(readUpTo(streamId, cut), (records) => {
    const aggregate = aggregateOf(streamId, entries)
    if (aggregate === undefined)
      return {
        streamId,
        kind: unknownKind,
        steps: records.map((record) => ({
          record,
          failure: "no aggregate the audit knows owns this stream",
          state: undefined,
          status: unknownKind,
          broken: [],
        })),
      }
    let state = aggregate.initialState
    const steps = records.map((record, i): TimelineStep => {
      const next = step(aggregate, state, record)
      state = next.state
      const broken = endsAppend(record, records[i + 1]) ? aggregate.invariants(state) : []
      return {
        record,
        ...withoutUndefined({ failure: next.failure }),
        state,
        status: aggregate.status(state),
        broken,
      }
    })
    return { streamId, kind: aggregate.kind, steps }
  })
