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
 * the one every append runs, writes plain objects from a cached sorted
 * order of their keys and hands anything else (a toJSON, a boxed value, a
 * class instance) to the first. The tests prove they give the same bytes.
 */

/** What JSON.stringify does to a value before writing it: its toJSON (given its key), and a boxed value unboxed. */
const asJsonStringifySeesIt = (value: unknown, key: string): unknown => {
  let seen = value
  if ((typeof seen === "object" && seen !== null) || typeof seen === "bigint") {
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

/** How to write an object of one key order: its keys sorted, each with its `"key":` written once. */
interface KeyOrder {
  /** The keys as Object.keys gives them. */
  readonly keys: ReadonlyArray<string>
  readonly sorted: ReadonlyArray<string>
  /** `"key":` for each sorted key. */
  readonly prefixes: ReadonlyArray<string>
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

const keyOrderOf = (keys: ReadonlyArray<string>): KeyOrder => {
  const first = keys[0]!
  const known = keyOrders.get(first)
  if (known !== undefined) for (const order of known) if (sameKeys(order.keys, keys)) return order
  const sorted = [...keys].sort()
  const order: KeyOrder = { keys, sorted, prefixes: sorted.map((key) => `${JSON.stringify(key)}:`) }
  if (keyOrdersHeld < keyOrdersMax) {
    keyOrdersHeld++
    if (known === undefined) keyOrders.set(first, [order])
    else known.push(order)
  }
  return order
}

/** A plain object (Object's prototype or none) with no toJSON: written here; anything else by hand. */
const writePlainObject = (record: Record<string, unknown>): string => {
  const keys = Object.keys(record)
  if (keys.length < 2) {
    const member = keys.length === 0 ? undefined : write(record[keys[0]!], keys[0]!)
    return member === undefined ? "{}" : `{${JSON.stringify(keys[0])}:${member}}`
  }
  const order = keyOrderOf(keys)
  let text = "{"
  for (let i = 0; i < order.sorted.length; i++) {
    const member = write(record[order.sorted[i]!], order.sorted[i]!)
    if (member === undefined) continue
    text += text.length === 1 ? order.prefixes[i]! + member : `,${order.prefixes[i]!}${member}`
  }
  return `${text}}`
}

const write = (value: unknown, key: string): string | undefined => {
  switch (typeof value) {
    case "string":
    case "number":
      return JSON.stringify(value)
    case "boolean":
      return value ? "true" : "false"
    case "object": {
      if (value === null) return "null"
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return writeByHand(value, key)
      if (Array.isArray(value)) {
        let text = "["
        for (let i = 0; i < value.length; i++) text += `${i === 0 ? "" : ","}${write(value[i], String(i)) ?? "null"}`
        return `${text}]`
      }
      const prototype = Object.getPrototypeOf(value)
      return prototype === Object.prototype || prototype === null
        ? writePlainObject(value as Record<string, unknown>)
        : writeByHand(value, key)
    }
    default:
      return writeByHand(value, key)
  }
}

/**
 * A value's canonical JSON (above). Throws a TypeError for a value with no
 * JSON form (undefined, a function, a symbol, a BigInt), a RangeError (the
 * stack spent) for a cycle.
 */
export const canonicalJson = (value: unknown): string => {
  const text = write(value, "")
  if (text === undefined) throw noJsonForm(value)
  return text
}

/**
 * `canonicalJson`, or undefined for a value with no JSON form (which an
 * object's canonical JSON leaves out). `key` is the member name a toJSON is
 * given, as JSON.stringify gives it: "" for a value on its own.
 */
export const canonicalJsonOrNothing = (value: unknown, key = ""): string | undefined => write(value, key)
