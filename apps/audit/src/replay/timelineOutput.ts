/**
 * How `show` and `at` print: a stream's timeline, and states as of a cut,
 * as text for people or as JSON for machines.
 */

import type { EventStore, StoreError } from "@mizan/eventsourcing"
import { withoutUndefined } from "@mizan/kernel"
import { Effect } from "effect"
import { formatCount, isoTime, toJson } from "../common/format.ts"
import type { AuditError } from "../common/stores.ts"
import type { WriteChunk } from "../common/writeChunk.ts"
import type { BrokenRule } from "../model/registry.ts"
import type { Cut, Replayer, TrackedStream, TrackedStreams } from "./replay.ts"
import { reportJson, reportText } from "./reportOutput.ts"
import type { Timeline, TimelineStep } from "./timeline.ts"

const indent = (text: string, by: string): string =>
  text
    .split("\n")
    .map((line) => `${by}${line}`)
    .join("\n")

const brokenText = (broken: ReadonlyArray<BrokenRule>): string =>
  broken.map((b) => `  BROKEN: ${b.rule}${b.detail === "" ? "" : ` (${b.detail})`}`).join("\n")

const stepText = (step: TimelineStep): string => {
  const { record } = step
  const lines = [
    `v${record.streamVersion}  ${isoTime(record.metadata.recordedAt)}  position ${record.globalPosition}  ${record.type} (schema v${record.schemaVersion})`,
    "  data:",
    indent(toJson(record.data, 2), "    "),
  ]
  if (step.failure !== undefined) lines.push(`  NOT APPLIED: ${step.failure}`)
  lines.push(`  state after (${step.status}):`, indent(toJson(step.state, 2) ?? "undefined", "    "))
  if (step.broken.length > 0) lines.push(brokenText(step.broken))
  return lines.join("\n")
}

/** Whether a timeline shows anything broken: an event not applied, or a rule broken after an append. */
export const timelineIsClean = (timeline: Timeline): boolean =>
  timeline.steps.every((step) => step.failure === undefined && step.broken.length === 0)

export const timelineText = (timeline: Timeline): string =>
  timeline.steps.length === 0
    ? `${timeline.streamId}: no events\n`
    : `${timeline.streamId} (${timeline.kind}, ${formatCount(timeline.steps.length)} events)\n\n${timeline.steps
        .map(stepText)
        .join("\n\n")}\n`

const stepJson = (step: TimelineStep) => ({
  streamVersion: step.record.streamVersion,
  globalPosition: step.record.globalPosition.toString(),
  recordedAt: isoTime(step.record.metadata.recordedAt),
  id: step.record.id,
  type: step.record.type,
  schemaVersion: step.record.schemaVersion,
  data: step.record.data,
  metadata: step.record.metadata,
  ...withoutUndefined({ notApplied: step.failure }),
  status: step.status,
  state: step.state,
  broken: step.broken,
})

export const timelineJson = (timeline: Timeline): string =>
  `${toJson({ streamId: timeline.streamId, kind: timeline.kind, events: timeline.steps.map(stepJson) })}\n`

/** A cut in words: "2026-01-01T00:00:00.000Z" or "position 1234". */
export const cutText = (cut: Cut): string =>
  cut._tag === "Position" ? `position ${cut.position}` : cut._tag === "Time" ? isoTime(cut.atMs) : "now"

const cutJson = (cut: Cut) =>
  cut._tag === "Position"
    ? { position: cut.position.toString() }
    : cut._tag === "Time"
      ? { time: isoTime(cut.atMs) }
      : {}

/** One stream as it was at the cut: the last step of its timeline up to it. */
export const streamAtText = (timeline: Timeline, cut: Cut): string => {
  const last = timeline.steps.at(-1)
  if (last === undefined) return `${timeline.streamId} as of ${cutText(cut)}: no events yet\n`
  const lines = [
    `${timeline.streamId} (${timeline.kind}) as of ${cutText(cut)}: version ${last.record.streamVersion}, last event ${last.record.type} at ${isoTime(last.record.metadata.recordedAt)}, position ${last.record.globalPosition}`,
    `status ${last.status}`,
    toJson(last.state, 2) ?? "undefined",
  ]
  if (last.broken.length > 0) lines.push(brokenText(last.broken))
  return `${lines.join("\n")}\n`
}

export const streamAtJson = (timeline: Timeline, cut: Cut): string => {
  const last = timeline.steps.at(-1)
  return `${toJson({
    asOf: cutJson(cut),
    streamId: timeline.streamId,
    kind: timeline.kind,
    streamVersion: last?.record.streamVersion ?? 0,
    ...(last === undefined
      ? {}
      : {
          lastEventAt: isoTime(last.record.metadata.recordedAt),
          lastPosition: last.record.globalPosition.toString(),
          status: last.status,
          state: last.state,
          broken: last.broken,
        }),
  })}\n`
}

const statusOf = (tracked: TrackedStream): string =>
  tracked.aggregate === undefined ? "unknown" : tracked.aggregate.status(tracked.state)

/** Streams per written chunk: the state of every stream is written a slice at a time, never as one string. */
const streamsPerChunk = 1_000

const inSlices = Effect.fn("Audit.inSlices")(function* (
  streams: TrackedStreams,
  write: WriteChunk,
  line: (tracked: TrackedStream, first: boolean) => string,
) {
  let slice: Array<string> = []
  let first = true
  for (const tracked of streams.values()) {
    slice.push(line(tracked, first))
    first = false
    if (slice.length >= streamsPerChunk) {
      yield* write(slice.join(""))
      slice = []
    }
  }
  if (slice.length > 0) yield* write(slice.join(""))
})

/** Every stream as it was at the cut, after the report of the replay up to it. */
export const everyStreamAt = (
  replayer: Replayer,
  cut: Cut,
  json: boolean,
  write: WriteChunk,
): Effect.Effect<void, AuditError | StoreError, EventStore> =>
  Effect.gen(function* () {
    const report = replayer.report()
    if (!json) {
      yield* write(`As of ${cutText(cut)}\n\n${reportText(report)}\nStreams\n`)
      yield* inSlices(
        replayer.streams,
        write,
        (t) => `  ${t.streamId}  ${t.aggregate?.kind ?? "unknown"}  v${t.version}  ${statusOf(t)}\n`,
      )
      return
    }
    const head = toJson({ asOf: cutJson(cut), report: reportJson(report) })
    yield* write(`${head.slice(0, -1)},"streams":[`)
    yield* inSlices(
      replayer.streams,
      write,
      (t, first) =>
        `${first ? "" : ","}${toJson({
          streamId: t.streamId,
          kind: t.aggregate?.kind ?? "unknown",
          streamVersion: t.version,
          lastEventAt: isoTime(t.lastRecordedAt),
          status: statusOf(t),
          state: t.state,
        })}`,
    )
    yield* write("]}\n")
  })
