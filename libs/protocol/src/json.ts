/**
 * JSON for the wire. Parsing keeps the exact source text of every number that
 * is not a plain safe integer, so the Money codec sees `0.10`, `1e3` or
 * `12.345` as written and decides exactly (docs/api.md#amounts-and-numbers: the wire
 * decimal is parsed exactly); a float never stands in for an amount. It relies on the
 * `context.source` argument that Node 24 passes to `JSON.parse` revivers.
 */
import { Result, Schema } from "effect"

/** A body that is not JSON. Says where, never what: the body may hold a card number. */
export class MalformedJson extends Schema.TaggedError<MalformedJson>()("MalformedJson", {
  position: Schema.UndefinedOr(Schema.Number),
}) {
  override get message(): string {
    return this.position === undefined ? "body is not valid JSON" : `body is not valid JSON (at byte ${this.position})`
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })
const plainInteger = /^-?(?:0|[1-9][0-9]*)$/

/** `JSON.parse`'s third reviver argument (Node 22+): the text a primitive was parsed from. */
interface ReviverContext {
  readonly source?: string
}

const keepExactNumbers = (_key: string, value: unknown, context?: ReviverContext): unknown => {
  if (typeof value !== "number" || context?.source === undefined) return value
  const source = context.source
  return plainInteger.test(source) && Number.isSafeInteger(value) ? value : source
}

const positionIn = (error: unknown): number | undefined => {
  const match = error instanceof Error ? /position (\d+)/.exec(error.message) : null
  return match?.[1] === undefined ? undefined : Number(match[1])
}

/** An object names a key twice. Says which key, never a value. */
export class DuplicateKey extends Schema.TaggedError<DuplicateKey>()("DuplicateKey", { key: Schema.String }) {
  override get message(): string {
    return `body names the key ${JSON.stringify(this.key)} twice in one object`
  }
}

const quote = 0x22
const backslash = 0x5c

/**
 * How deep arrays and objects may nest in a body. No operation's body nests
 * more than a few levels; the limit keeps a deep one (a megabyte of `[`) from
 * overflowing the stack of the reviver and of the decoders after it, which
 * would turn valid JSON into "not valid JSON" or a 500.
 */
export const maxNestingDepth = 64

/** A body whose arrays and objects nest deeper than `maxNestingDepth`. */
export class NestedTooDeeply extends Schema.TaggedError<NestedTooDeeply>()("NestedTooDeeply", {
  limit: Schema.Number,
}) {
  override get message(): string {
    return `body nests arrays and objects more than ${this.limit} deep`
  }
}

/**
 * What the structure of a valid JSON text breaks, in one pass: its
 * arrays and objects nesting deeper than `depthLimit`, or the first key some
 * object names twice. JSON leaves duplicates undefined and parsers differ
 * (`JSON.parse` keeps the last, others the first), so a body that names
 * `totalAmount` twice would be a different order to another reader of the
 * same signed bytes: such a body is refused. Keys compare as decoded (`"a"`
 * and `"\u0061"` are one key).
 */
const structureProblemIn = (text: string, depthLimit: number): DuplicateKey | NestedTooDeeply | undefined => {
  // One set of keys per open object; `null` for an open array. Its length is the depth.
  const open: Array<Set<string> | null> = []
  let expectingKey = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === quote) {
      let end = i + 1
      let escaped = false
      while (text.charCodeAt(end) !== quote) {
        if (text.charCodeAt(end) === backslash) {
          escaped = true
          end += 2
        } else end += 1
      }
      const keys = open.at(-1)
      if (expectingKey && keys) {
        const raw = text.slice(i + 1, end)
        const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw
        if (keys.has(key)) return new DuplicateKey({ key })
        keys.add(key)
        expectingKey = false
      }
      i = end
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      open.push(c === 0x7b ? new Set() : null)
      if (open.length > depthLimit) return new NestedTooDeeply({ limit: depthLimit })
      expectingKey = c === 0x7b
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop()
    } else if (c === 0x2c /* , */) {
      expectingKey = open.at(-1) !== null && open.length > 0
    }
  }
  return undefined
}

/** The first key that some object of a valid JSON text names twice (`structureProblemIn`). */
export const duplicateKeyIn = (text: string): string | undefined => {
  const problem = structureProblemIn(text, Number.POSITIVE_INFINITY)
  return problem?._tag === "DuplicateKey" ? problem.key : undefined
}

/**
 * Parses a JSON body (text or UTF-8 bytes). Safe integers stay numbers; every
 * other number (`0.10`, `1e3`, `12345678901234567890`) becomes its source
 * text, which the wire schemas decode exactly or refuse. A body whose object
 * names a key twice is refused (`duplicateKeyIn`), and so is one nested
 * deeper than `maxNestingDepth`.
 */
export const parseJson = (
  body: string | Uint8Array,
): Result.Result<unknown, MalformedJson | DuplicateKey | NestedTooDeeply> => {
  let text: string
  try {
    text = typeof body === "string" ? body : strictUtf8.decode(body)
  } catch {
    return Result.fail(new MalformedJson({ position: undefined }))
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text, keepExactNumbers)
  } catch (error) {
    // The reviver walks the parsed value recursively: thousands of levels overflow its stack.
    if (error instanceof RangeError) return Result.fail(new NestedTooDeeply({ limit: maxNestingDepth }))
    return Result.fail(new MalformedJson({ position: positionIn(error) }))
  }
  const problem = structureProblemIn(text, maxNestingDepth)
  return problem === undefined ? Result.succeed(parsed) : Result.fail(problem)
}

const refuseNonJson = (key: string, value: unknown): unknown => {
  if (typeof value === "number" && !Number.isFinite(value))
    throw new TypeError(`cannot write ${String(value)} at "${key}" as JSON`)
  if (typeof value === "bigint") throw new TypeError(`cannot write a bigint at "${key}" as JSON`)
  return value
}

/**
 * Writes a response or notification body. Amounts arrive here already encoded
 * by the wire schemas as JSON numbers (`10.5`, `0.1`); a non-finite number is
 * a bug and throws instead of silently becoming `null`.
 */
export const stringifyJson = (value: unknown): string => {
  const text = JSON.stringify(value, refuseNonJson)
  if (text === undefined) throw new TypeError("cannot write undefined as a JSON body")
  return text
}
