/**
 * The tamper-evident log (docs/architecture.md#a-tamper-evident-log): every
 * recorded event carries a chain hash over its stream's previous chain hash
 * and its own canonical bytes, and signed heads digest the whole log in its
 * global order. Every adapter computes the hash here, where it builds the
 * record, and the audit's verifier recomputes it here: one function, so
 * they cannot disagree.
 */
import { createHash } from "node:crypto"
import type { EventMetadata } from "./events.ts"

/** A SHA-256 digest as 64 lower-case hex digits. */
export type Sha256Hex = string

/** What the first event of a stream chains from, and what the log's digest starts at: 32 zero bytes. */
export const chainGenesis: Sha256Hex = "0".repeat(64)

/**
 * Canonical JSON written member by member: object keys sorted, no
 * whitespace, undefined members left out, as JSON.stringify leaves them out
 * of what the store keeps. For the objects `canonicalJson`'s fast path
 * cannot order.
 */
const canonicalJsonByHand = (value: unknown): string => {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value)
    if (text === undefined) throw new TypeError(`a ${typeof value} has no JSON form`)
    return text
  }
  const toJson = (value as { toJSON?: () => unknown }).toJSON
  if (typeof toJson === "function") return canonicalJsonByHand(toJson.call(value))
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined || typeof item === "function" ? "null" : canonicalJsonByHand(item))).join(",")}]`
  const members: Array<string> = []
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record).sort()) {
    const member = record[key]
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue
    members.push(`${JSON.stringify(key)}:${canonicalJsonByHand(member)}`)
  }
  return `{${members.join(",")}}`
}

/**
 * Keys a copy cannot hold in the order they were inserted: JavaScript
 * objects enumerate integer-like keys first, in numeric order, and
 * `__proto__` sets the prototype instead of a member.
 */
const unorderableKey = /^(?:0|[1-9][0-9]*|__proto__)$/

/** Thrown inside `sortedCopy` when an object has such a key: the copy is abandoned for the hand-written form. */
const unorderable = Symbol("unorderable")

/** A copy of a JSON value with every object's keys inserted in sorted order, and every toJSON applied. */
const sortedCopy = (value: unknown): unknown => {
  if (value === null || typeof value !== "object") return value
  if (Array.isArray(value)) return value.map(sortedCopy)
  const toJson = (value as { toJSON?: () => unknown }).toJSON
  if (typeof toJson === "function") return sortedCopy(toJson.call(value))
  const record = value as Record<string, unknown>
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(record).sort()) {
    if (unorderableKey.test(key)) throw unorderable
    copy[key] = sortedCopy(record[key])
  }
  return copy
}

/**
 * JSON with object keys sorted by UTF-16 code unit and no whitespace, in
 * the manner of RFC 8785 (JCS): strings and numbers are written as
 * JSON.stringify writes them (ECMAScript's shortest round-trip numbers), so
 * a value read back from its stored JSON text gives the same bytes as the
 * value that was written. Built as a key-sorted copy written by one
 * JSON.stringify, about twice as fast as writing member by member (an
 * append hashes every event it writes); an object with an integer-like key,
 * which no copy can hold in sorted order, is written member by member.
 */
export const canonicalJson = (value: unknown): string => {
  let copy: unknown
  try {
    copy = sortedCopy(value)
  } catch (error) {
    if (error === unorderable) return canonicalJsonByHand(value)
    throw error
  }
  const text = JSON.stringify(copy)
  if (text === undefined) throw new TypeError(`a ${typeof value} has no JSON form`)
  return text
}

/**
 * What the chain hash covers: everything an event was recorded with but its
 * global position, which the PostgreSQL store learns only inside the
 * insert, and which an import into another store changes anyway. The
 * stored `schemaVersion` and `data`, never an upcast form, so reading old
 * versions through today's code never breaks verification.
 */
export interface ChainedFields {
  readonly id: string
  readonly streamId: string
  readonly streamVersion: number
  readonly type: string
  readonly schemaVersion: number
  readonly data: unknown
  readonly metadata: EventMetadata & { readonly recordedAt: number }
}

const sha256 = () => createHash("sha256")

/**
 * The chain hash of an event: SHA-256 over the previous event's chain hash
 * (of the same stream; `chainGenesis` for the first) as 32 bytes, then the
 * canonical JSON of the event's fields as UTF-8. A changed byte of data, a
 * changed recorded time, a removed or reordered event all change it.
 */
export const chainHashOf = (previous: Sha256Hex, event: ChainedFields): Sha256Hex =>
  sha256()
    .update(Buffer.from(previous, "hex"))
    .update(
      canonicalJson({
        id: event.id,
        streamId: event.streamId,
        streamVersion: event.streamVersion,
        type: event.type,
        schemaVersion: event.schemaVersion,
        data: event.data,
        metadata: event.metadata,
      }),
      "utf8",
    )
    .digest("hex")

/**
 * The log's running digest after one more event: SHA-256 over the digest so
 * far and the event's chain hash, in global order. A signed head holds it,
 * so that a whole stream deleted, or the log's tail cut off, shows.
 */
export const logDigestAfter = (digest: Sha256Hex, chainHash: Sha256Hex): Sha256Hex =>
  sha256().update(Buffer.from(digest, "hex")).update(Buffer.from(chainHash, "hex")).digest("hex")

/** A head of the log: how many events it holds, the last of them, and its running digest. */
export interface LogHead {
  /** Events in the log up to and including `lastEventId`. */
  readonly count: number
  readonly lastEventId: string
  readonly digest: Sha256Hex
  /** When it was signed, ms since the epoch. */
  readonly signedAt: number
}

/**
 * A head as the store keeps it: the signed fields, the signature, and where
 * this store holds the head's last event. The position is a locator, not
 * signed: an import gives the events other positions, and the head keeps
 * its signature (the verifier places a head by its count and last event id).
 */
export interface SignedHead extends LogHead {
  /** Standard Base64 SHA256withRSA over `signedHeadPayload(head)`. */
  readonly signature: string
  readonly position: bigint
}

/** The exact bytes a head's signature covers: its canonical JSON, tagged so it can never pass for a request body. */
export const signedHeadPayload = (head: LogHead): string =>
  canonicalJson({
    mizanLogHead: 1,
    count: head.count,
    lastEventId: head.lastEventId,
    digest: head.digest,
    signedAt: head.signedAt,
  })
