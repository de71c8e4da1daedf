/** How `access` reports: a few lines for a data-protection officer, one JSON object for machines. */
import { forgotten } from "@mizan/kernel"
import { counted, isoTime, toJson } from "../common/format.ts"
import type { HeldEvent, SubjectAccess, SubjectTarget } from "./subjectAccess.ts"

/** Whether the store holds nothing of the subject and never forgot it: a value written otherwise, or nobody it saw. */
export const accessFindsNothing = (access: SubjectAccess): boolean =>
  access.events.length === 0 && access.forgets.length === 0

/**
 * The sentence for a subject the store never held nor forgot (`outcome`:
 * what the command did of it, ": nothing changed"), with what a VALUE that
 * names nobody may be: forget and access say it alike.
 */
export const nothingHeldOf = (target: SubjectTarget, subjectId: string, outcome = ""): string =>
  target._tag === "ByValue"
    ? `no event holds data of ${subjectId}, nor was it ever forgotten${outcome}. Is VALUE as the service received it (a card number's digits alone, with no spaces or dashes), in clear or as its SHA-256 hex?`
    : `no event of ${target.streamId} holds a ${target.kind} of its own, nor was one ever forgotten${outcome}`

/** The events by stream, streams in the order the log first holds them. */
const byStream = (events: ReadonlyArray<HeldEvent>): ReadonlyMap<string, ReadonlyArray<HeldEvent>> => {
  const streams = new Map<string, Array<HeldEvent>>()
  for (const event of events) {
    const held = streams.get(event.streamId)
    if (held === undefined) streams.set(event.streamId, [event])
    else held.push(event)
  }
  return streams
}

const isForgottenData = (value: unknown): boolean =>
  typeof value === "object" && value !== null ? Object.values(value).every(isForgottenData) : value === forgotten

/** The first line: whose data, how much, and whether any of it can be shown. */
const headline = (access: SubjectAccess, target: SubjectTarget, streams: number): string => {
  const { subjectId, events, forgets } = access
  const last = forgets.at(-1)
  const forgottenBy = last === undefined ? "" : `forgotten at ${isoTime(last.at)} by ${last.by}`
  const held = `${counted(events.length, "event")} in ${counted(streams, "stream")}`
  if (accessFindsNothing(access)) return nothingHeldOf(target, subjectId)
  if (events.length === 0) return `${subjectId} was ${forgottenBy}: no event holds its data`
  if (events.every((event) => isForgottenData(event.data)))
    return `${subjectId} was ${forgottenBy}: no data can be shown; ${held} held its data, whose fields read ${forgotten}`
  return last === undefined
    ? `${subjectId}: ${held} hold its data`
    : `${subjectId}: ${held} hold its data; it was ${forgottenBy}, and the fields sealed before then read ${forgotten}`
}

export const accessText = (access: SubjectAccess, target: SubjectTarget): string => {
  const streams = byStream(access.events)
  const lines = [headline(access, target, streams.size)]
  for (const [streamId, events] of streams) {
    lines.push(streamId)
    for (const event of events)
      lines.push(
        `  v${event.streamVersion} at global position ${event.globalPosition} (${isoTime(event.recordedAt)}) ${event.type}: ${toJson(event.data)}`,
      )
  }
  return `${lines.join("\n")}\n`
}

export const accessJson = (access: SubjectAccess): string =>
  `${toJson({
    subjectId: access.subjectId,
    held: access.events.length > 0,
    forgotten: access.forgets.map((forget) => ({ at: isoTime(forget.at), by: forget.by })),
    streams: [...byStream(access.events).keys()],
    events: access.events.map((event) => ({ ...event, recordedAt: isoTime(event.recordedAt) })),
  })}\n`
