/**
 * Canonical JSON, the bytes the chain hash covers (chain.ts): what
 * JSON.stringify writes, with every object's members in sorted key order
 * (by UTF-16 code unit, integer-like keys among the rest) and no
 * whitespace, in the manner of RFC 8785 (JCS). Strings and numbers are
 * written as JSON.stringify writes them (ECMAScript's shortest round-trip
 * numbers), so a value read back from its stored JSON text gives the same
 * bytes as the value that was written, and canonical JSON parsed and
 * written again is the same text: a store may keep it as the event's JSON
 * and hash it as it is.
 *
 * Two writers of the one definition: `canonicalJsonByHand` states it
 * member by member, for every value JSON.stringify accepts; `canonicalJson`,
 * the one every append runs, copies a value of plain objects with their
 * keys in sorted order (a copy per key order, remembered) and lets one
 * JSON.stringify write it, and hands anything else (a toJSON, a boxed
 * value, a class instance, an integer-like key) to the first. The tests
 * prove they give the same bytes.
 */

/** What JSON.stringify does to a value before writing it: its toJSON (given its key), and a boxed value unboxed. */
const asJsonStringifySeesIt = (value: unknown, key: string): unknown => {
  let seen = value
  if ((typeof seen === "object" && seen !== null) || typeof seen === "function" || typeof seen === "bigint") {
    const toJson = (seen as { toJSON?: unknown }).toJSON
    if (typeof toJson === "function") seen = toJson.call(seen, key)
  }
  if (typeof seen === "object" && seen !== null) {
    if (seen instanceof Number) return Number(seen)
    if (seen instanceof String) return String(seen)
    if (seen instanceof Boolean) return seen.valueOf()
  }
  return seen
}

/** One value's canonical JSON, member by member; undefined when it has none (undefined, a function, a symbol). */
const writeByHand = (value: unknown, key: string): string | undefined => {
  const seen = asJsonStringifySeesIt(value, key)
  if (seen === null) return "null"
  switch (typeof seen) {
    case "string":
    case "number":
    case "boolean":
    case "bigint": // JSON.stringify throws, naming the BigInt.
      return JSON.stringify(seen)
    case "object": {
      if (Array.isArray(seen)) {
        const items: Array<string> = []
        // By index: a hole is written as null, as JSON.stringify writes it.
        for (let i = 0; i < seen.length; i++) items.push(writeByHand(seen[i], String(i)) ?? "null")
        return `[${items.join(",")}]`
      }
      const record = seen as Record<string, unknown>
      const members: Array<string> = []
      for (const memberKey of Object.keys(record).sort()) {
        const member = writeByHand(record[memberKey], memberKey)
        if (member !== undefined) members.push(`${JSON.stringify(memberKey)}:${member}`)
      }
      return `{${members.join(",")}}`
    }
    default:
      return undefined
  }
}

const noJsonForm = (value: unknown) => new TypeError(`a ${typeof value} has no JSON form`)

/** The definition of canonical JSON, written member by member: the reference `canonicalJson` is proven against. */
export const canonicalJsonByHand = (value: unknown): string => {
  const text = writeByHand(value, "")
  if (text === undefined) throw noJsonForm(value)
  return text
}

/**
 * Keys an object literal cannot hold in the order written: JavaScript
 * enumerates integer-like keys first, in numeric order, and `__proto__`
 * sets the prototype instead of a member. An object with one is written by
 * hand. (Every canonical integer string is taken for one, even those past
 * JavaScript's array indices: such an object is only written the slower way.)
 */
const unorderableKey = /^(?:0|[1-9][0-9]*|__proto__)$/

/** Thrown inside `sortedCopy` at what no copy can hold in order: the value is then written by hand. */
const notCopyable = Symbol("notCopyable")

/** How to copy plain objects of one key order with their keys in sorted order. */
interface KeyOrder {
  /** The keys as Object.keys gives them. */
  readonly keys: ReadonlyArray<string>
  /** Undefined when a key is unorderable. */
  readonly copy: ((record: Record<string, unknown>) => Record<string, unknown>) | undefined
}

/**
 * Key orders seen, by their first key. Events of one type have one key
 * order (a codec writes its fields in one order), so a few dozen entries
 * serve a whole log; the bound keeps objects keyed by data (one order per
 * object) from growing it without end: past it, an order is sorted anew
 * each time.
 */
const keyOrders = new Map<string, Array<KeyOrder>>()
const keyOrdersMax = 1_024
let keyOrdersHeld = 0

const sameKeys = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * A function that copies an object of these (sorted, orderable) keys as one
 * object literal: V8 makes such a copy with its final shape at once, about
 * ten times faster than adding the members one by one, so that the copy
 * and one JSON.stringify cost little more than the JSON.stringify alone.
 * Generated from the keys, each written as a JSON string, which is a
 * JavaScript string literal: no key can be read as code.
 */
const literalCopyOf = (sorted: ReadonlyArray<string>) =>
  new Function(
    "copyMember",
    `return (record) => ({ ${sorted.map((key) => `${JSON.stringify(key)}: copyMember(record[${JSON.stringify(key)}])`).join(", ")} })`,
  )(sortedCopy) as (record: Record<string, unknown>) => Record<string, unknown>

/**
 * A copy made member by member: for a key order past the bound, whose copy
 * is not worth generating, and in a process that may not generate code
 * (node --disallow-code-generation-from-strings).
 */
const memberwiseCopyOf = (sorted: ReadonlyArray<string>) => (record: Record<string, unknown>) => {
  const copy: Record<string, unknown> = {}
  for (const key of sorted) copy[key] = sortedCopy(record[key])
  return copy
}

const fastestCopyOf = (sorted: ReadonlyArray<string>) => {
  try {
    return literalCopyOf(sorted)
  } catch (error) {
    if (error instanceof EvalError) return memberwiseCopyOf(sorted)
    throw error
  }
}

const keyOrderOf = (keys: ReadonlyArray<string>): KeyOrder => {
  const first = keys[0]!
  const known = keyOrders.get(first)
  if (known !== undefined) for (const order of known) if (sameKeys(order.keys, keys)) return order
  const sorted = [...keys].sort()
  const orderable = !sorted.some((key) => unorderableKey.test(key))
  if (keyOrdersHeld >= keyOrdersMax) return { keys, copy: orderable ? memberwiseCopyOf(sorted) : undefined }
  const order: KeyOrder = { keys, copy: orderable ? fastestCopyOf(sorted) : undefined }
  keyOrdersHeld++
  if (known === undefined) keyOrders.set(first, [order])
  else known.push(order)
  return order
}

/**
 * A copy of a value with every plain object's keys in sorted order, which
 * JSON.stringify then writes as canonical JSON. Primitives, functions and
 * symbols stay as they are (JSON.stringify writes or leaves them out as
 * the definition does); throws `notCopyable` at a toJSON, an object that is
 * not plain (a date, a boxed value, a class instance) or an unorderable key.
 */
const sortedCopy = (value: unknown): unknown => {
  if (typeof value !== "object" || value === null) return value
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") throw notCopyable
  if (Array.isArray(value)) {
    // By index: a hole becomes undefined, which JSON.stringify writes as null, as it writes a hole.
    const copy = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) copy[i] = sortedCopy(value[i])
    return copy
  }
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) throw notCopyable
  const keys = Object.keys(value)
  if (keys.length === 0) return {}
  const copy = keyOrderOf(keys).copy
  if (copy === undefined) throw notCopyable
  return copy(value as Record<string, unknown>)
}

/**
 * `canonicalJson`, or undefined for a value with no JSON form (which an
 * object's canonical JSON leaves out). `key` is the member name a toJSON is
 * given, as JSON.stringify gives it: "" for a value on its own.
 */
export const canonicalJsonOrNothing = (value: unknown, key = ""): string | undefined => {
  let copy: unknown
  try {
    copy = sortedCopy(value)
  } catch (error) {
    if (error === notCopyable) return writeByHand(value, key)
    throw error
  }
  return JSON.stringify(copy)
}

/**
 * A value's canonical JSON (above). Throws a TypeError for a value with no
 * JSON form (undefined, a function, a symbol, a BigInt), a RangeError (the
 * stack spent) for a cycle.
 */
export const canonicalJson = (value: unknown): string => {
  const text = canonicalJsonOrNothing(value)
  if (text === undefined) throw noJsonForm(value)
  return text
}
