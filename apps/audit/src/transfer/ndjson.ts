/**
 * The export format: the whole log as NDJSON, one line per recorded event
 * with every field the store recorded (the port's `RecordedEvent`; the
 * global position as a decimal string, since it is a bigint), in global
 * order, then one end line that counts them:
 *
 *   {"globalPosition":"1","id":"...","streamId":"acquiring-5-M0001-ORD-1","streamVersion":1,
 *    "type":"OrderCreated","schemaVersion":1,"data":{...},"metadata":{"recordedAt":1767225600000}}
 *   ...
 *   {"end":{"events":1234}}
 *
 * The end line is what tells a complete file from one cut short at a line
 * boundary (a copy that stopped, a full disk): without it, import refuses.
 *
 * An event line carries the event's `chainHash`, and each signed head of the
 * log is a line of its own right after the event it ends at (its count-th),
 * without its position (the target store's positions are its own):
 *
 *   {"signedHead":{"count":2,"lastEventId":"...","digest":"...","signedAt":...,"signature":"..."}}
 *
 * A sealed store's key table comes first, one line per data key, wrapped
 * by the master key as the table keeps it (forgotten keys without it), so
 * that the sealed events it opens travel with it
 * (docs/architecture.md#sealed-personal-data):
 *
 *   {"subjectKey":{"keyId":"...","subjectId":"card:...","wrappedKey":"...","masterKeyId":"mk-...","createdAt":...}}
 */

import type { LogHead, RecordedEvent, SignedHead, SubjectKey } from "@mizan/eventsourcing"
import { issueMessage, withoutUndefined } from "@mizan/kernel"
import { Result, Schema } from "effect"

const Sha256Hex = Schema.String.check(
  Schema.isPattern(/^[0-9a-f]{64}$/, { message: "must be a SHA-256 digest in 64 lower-case hex digits" }),
)

const Count = (what: string) =>
  Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: `${what} must be 1 or more` }))

export const ExportedEvent = Schema.Struct({
  globalPosition: Schema.String.check(
    Schema.isPattern(/^(0|[1-9][0-9]*)$/, { message: "must be a position written as decimal digits" }),
  ),
  id: Schema.NonEmptyString,
  streamId: Schema.NonEmptyString,
  streamVersion: Count("a stream version"),
  type: Schema.NonEmptyString,
  schemaVersion: Count("a schema version"),
  data: Schema.Unknown,
  metadata: Schema.Struct({
    recordedAt: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a time in ms since 1970" })),
    correlationId: Schema.optionalKey(Schema.String),
    causationId: Schema.optionalKey(Schema.String),
  }),
  // Optional: files exported before the chain have none, and the target store computes it.
  chainHash: Schema.optionalKey(Sha256Hex),
})
export type ExportedEvent = typeof ExportedEvent.Type

export const ExportedHead = Schema.Struct({
  signedHead: Schema.Struct({
    count: Count("a head's count"),
    lastEventId: Schema.NonEmptyString,
    digest: Sha256Hex,
    signedAt: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a time in ms since 1970" })),
    signature: Schema.NonEmptyString,
  }),
})

/** A head as a file carries it: the signed fields and the signature, without a store's position. */
export type ExportedHead = LogHead & { readonly signature: string }

const Time = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a time in ms since 1970" }))

export const ExportedKey = Schema.Struct({
  subjectKey: Schema.Struct({
    keyId: Schema.NonEmptyString,
    subjectId: Schema.NonEmptyString,
    wrappedKey: Schema.optionalKey(Schema.NonEmptyString),
    masterKeyId: Schema.NonEmptyString,
    createdAt: Time,
    forgottenAt: Schema.optionalKey(Time),
    forgottenBy: Schema.optionalKey(Schema.String),
  }),
})

/** One data key's line. */
export const keyLine = (key: SubjectKey): string => JSON.stringify({ subjectKey: key })

export const ExportEnd = Schema.Struct({
  end: Schema.Struct({ events: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) }),
})

/** One event's line (without its newline). */
export const exportLine = (record: RecordedEvent): string =>
  JSON.stringify({
    globalPosition: record.globalPosition.toString(),
    id: record.id,
    streamId: record.streamId,
    streamVersion: record.streamVersion,
    type: record.type,
    schemaVersion: record.schemaVersion,
    data: record.data,
    metadata: record.metadata,
    ...withoutUndefined({ chainHash: record.chainHash }),
  })

/** One signed head's line. */
export const headLine = ({ count, lastEventId, digest, signedAt, signature }: SignedHead): string =>
  JSON.stringify({ signedHead: { count, lastEventId, digest, signedAt, signature } })

export const endLine = (events: number): string => JSON.stringify({ end: { events } })

export type ParsedLine =
  | { readonly _tag: "Event"; readonly event: ExportedEvent; readonly globalPosition: bigint }
  | { readonly _tag: "Head"; readonly head: ExportedHead }
  | { readonly _tag: "Key"; readonly key: SubjectKey }
  | { readonly _tag: "End"; readonly events: number }

const decodeEvent = Schema.decodeUnknownResult(ExportedEvent)
const decodeEnd = Schema.decodeUnknownResult(ExportEnd)
const decodeHead = Schema.decodeUnknownResult(ExportedHead)
const decodeKey = Schema.decodeUnknownResult(ExportedKey)

/** A line of an export, or why it is not one (a sentence without the line's content: it may be event data). */
export const parseLine = (text: string): Result.Result<ParsedLine, string> => {
  if (text.trim() === "") return Result.fail("the line is empty")
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Result.fail("the line is not JSON (the file is damaged or was cut short)")
  }
  if (typeof json === "object" && json !== null && "end" in json)
    return Result.mapBoth(decodeEnd(json), {
      onFailure: (error) => `the end line is malformed: ${issueMessage(error.issue)}`,
      onSuccess: (end): ParsedLine => ({ _tag: "End", events: end.end.events }),
    })
  if (typeof json === "object" && json !== null && "signedHead" in json)
    return Result.mapBoth(decodeHead(json), {
      onFailure: (error) => `the signed head line is malformed: ${issueMessage(error.issue)}`,
      onSuccess: (line): ParsedLine => ({ _tag: "Head", head: line.signedHead }),
    })
  if (typeof json === "object" && json !== null && "subjectKey" in json)
    return Result.mapBoth(decodeKey(json), {
      onFailure: (error) => `the data key line is malformed: ${issueMessage(error.issue)}`,
      onSuccess: (line): ParsedLine => ({ _tag: "Key", key: line.subjectKey }),
    })
  return Result.mapBoth(decodeEvent(json), {
    onFailure: (error) => `not an exported event: ${issueMessage(error.issue)}`,
    onSuccess: (event): ParsedLine => ({ _tag: "Event", event, globalPosition: BigInt(event.globalPosition) }),
  })
}
