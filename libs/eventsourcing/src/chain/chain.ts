/**
 * The tamper-evident log (docs/architecture.md#a-tamper-evident-log): every
 * recorded event carries a chain hash over its stream's previous chain hash
 * and its own canonical bytes, and signed heads digest the whole log in its
 * global order. Every adapter computes the hash here, where it builds the
 * record, and the audit's verifier recomputes it here: one function, so
 * they cannot disagree.
 */
import { createHash } from "node:crypto"
import type { EventMetadata } from "../events.ts"
import { canonicalJson, canonicalJsonOrNothing } from "./canonicalJson.ts"

export { canonicalJson, canonicalJsonOrNothing } from "./canonicalJson.ts"

/** A SHA-256 digest as 64 lower-case hex digits. */
export type Sha256Hex = string

/** What the first event of a stream chains from, and what the log's digest starts at: 32 zero bytes. */
export const chainGenesis: Sha256Hex = "0".repeat(64)

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
 * The chained fields with the data and metadata already in canonical JSON:
 * what a store that keeps the canonical text of an event's data hashes,
 * without writing it a second time.
 */
export interface CanonicalChainedFields {
  readonly id: string
  readonly streamId: string
  readonly streamVersion: number
  readonly type: string
  readonly schemaVersion: number
  /** `canonicalJson(data)`; undefined for data with no JSON form, left out as canonical JSON leaves out such a member. */
  readonly dataJson: string | undefined
  /** `canonicalJson(metadata)`, the recorded time among its members. */
  readonly metadataJson: string | undefined
}

/**
 * SHA-256 over `previous` as bytes, then `text` as UTF-8. Buffer.from reads
 * the hex (a hash's update would refuse an odd length, which Buffer.from
 * reads up to: a damaged stored hash is hashed, and found out, not thrown on).
 */
const sha256After = (previous: Sha256Hex, text: string): Sha256Hex =>
  sha256().update(Buffer.from(previous, "hex")).update(text, "utf8").digest("hex")

/**
 * `chainHashOf` from the canonical JSON of the data and metadata: the
 * record's canonical JSON is its members in sorted key order (data, id,
 * metadata, schemaVersion, streamId, streamVersion, type), so it is put
 * together here from the pieces, byte for byte what `canonicalJson` writes
 * of the whole record.
 */
export const chainHashOfCanonical = (previous: Sha256Hex, event: CanonicalChainedFields): Sha256Hex =>
  sha256After(
    previous,
    // The strings and numbers as JSON.stringify writes them, which is their canonical JSON.
    `{${event.dataJson === undefined ? "" : `"data":${event.dataJson},`}"id":${JSON.stringify(event.id)},${event.metadataJson === undefined ? "" : `"metadata":${event.metadataJson},`}"schemaVersion":${JSON.stringify(event.schemaVersion)},"streamId":${JSON.stringify(event.streamId)},"streamVersion":${JSON.stringify(event.streamVersion)},"type":${JSON.stringify(event.type)}}`,
  )

/**
 * The chain hash of an event: SHA-256 over the previous event's chain hash
 * (of the same stream; `chainGenesis` for the first) as 32 bytes, then the
 * canonical JSON of the event's fields (`ChainedFields`, nothing else) as
 * UTF-8. A changed byte of data, a changed recorded time, a removed or
 * reordered event all change it. The one definition: the stores and the
 * audit's verifier all compute it here.
 */
export const chainHashOf = (previous: Sha256Hex, event: ChainedFields): Sha256Hex =>
  // Named as a member of the record, as a toJSON would be told (JSON.stringify's key argument).
  chainHashOfStored(previous, event, canonicalJsonOrNothing(event.data, "data"))

/**
 * `chainHashOf` of an event whose data a store keeps as its canonical JSON,
 * `dataJson`: what the SQL stores hash, without writing the data again.
 */
export const chainHashOfStored = (previous: Sha256Hex, event: ChainedFields, dataJson: string | undefined): Sha256Hex =>
  chainHashOfCanonical(previous, {
    id: event.id,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
    schemaVersion: event.schemaVersion,
    dataJson,
    metadataJson: canonicalJsonOrNothing(event.metadata, "metadata"),
  })

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
