import { issueMessage } from "@mizan/kernel"
import { Result, Schema, SchemaIssue, SchemaParser } from "effect"

/** Turns one version of an event's data into the next version's. */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>

export interface EventVersion {
  /** The version written today. Starts at 1. */
  readonly current: number
  /** `upcasters[v]` turns version v into v + 1; one for every version below `current`. */
  readonly upcasters?: Readonly<Record<number, Upcaster>>
}

export interface SerializedEvent {
  readonly type: string
  readonly schemaVersion: number
  readonly data: unknown
}

/**
 * How an aggregate's events are written and read. Old versions are upcast
 * step by step to the current one before they are decoded, so every version
 * ever written still replays (docs/architecture.md#the-domain).
 */
export interface EventCodec<Event> {
  readonly encode: (event: Event) => SerializedEvent
  readonly decode: (event: SerializedEvent) => Result.Result<Event, string>
  readonly versions: Readonly<Record<string, EventVersion>>
}

/**
 * A decoder that answers the schema's issue as data. `SchemaParser`'s sync
 * decoder calls the compiled parser directly when a schema compiler is on
 * (the audit enables Effect's JIT compiler) and runs the detailed parser only
 * for input that fails, to say why; `decodeUnknownResult` runs every input
 * through a fiber, which cost the audit's replay about 1 µs an event.
 */
const resultDecoder = <A>(
  schema: Schema.ConstraintDecoder<A>,
): ((input: unknown) => Result.Result<A, SchemaIssue.Issue>) => {
  const decode = SchemaParser.decodeUnknownSync(schema)
  return (input) => {
    try {
      return Result.succeed(decode(input))
    } catch (error) {
      // A schema mismatch throws an Error whose cause is the issue; anything else is a defect, as before.
      if (error instanceof Error && SchemaIssue.isIssue(error.cause)) return Result.fail(error.cause)
      throw error
    }
  }
}

/**
 * An event codec from a schema of tagged events and the version of each tag.
 * The stored `type` is the event's `_tag`, and `data` its encoded form.
 */
export const makeEventCodec = <Event extends { readonly _tag: string }, Encoded>(
  schema: Schema.Codec<Event, Encoded>,
  versions: { readonly [Tag in Event["_tag"]]: EventVersion },
): EventCodec<Event> => {
  const encodeEvent = Schema.encodeSync(schema)
  const decodeEvent = resultDecoder(schema)
  const versionOf = versions as Readonly<Record<string, EventVersion>>
  return {
    versions: versionOf,
    encode: (event) => ({
      type: event._tag,
      schemaVersion: versionOf[event._tag]?.current ?? 1,
      data: encodeEvent(event),
    }),
    decode: ({ type, schemaVersion, data }) => {
      const version = versionOf[type]
      if (version === undefined) return Result.fail(`unknown event type ${type}`)
      if (schemaVersion > version.current)
        return Result.fail(`${type} version ${schemaVersion} is newer than this code knows (${version.current})`)
      if (typeof data !== "object" || data === null) return Result.fail(`${type} data is not an object`)
      const stored = data as Record<string, unknown>
      // Data written today already carries its type as `_tag` (it is the encoded event): decoded as it is, with no copy.
      let upcast = stored._tag === type ? stored : { ...stored, _tag: type }
      for (let v = schemaVersion; v < version.current; v++) {
        const upcaster = version.upcasters?.[v]
        if (upcaster === undefined) return Result.fail(`${type} has no upcaster from version ${v}`)
        upcast = { ...upcaster(upcast), _tag: type }
      }
      return Result.mapError(decodeEvent(upcast), (issue) => `${type} v${schemaVersion}: ${issueMessage(issue)}`)
    },
  }
}
