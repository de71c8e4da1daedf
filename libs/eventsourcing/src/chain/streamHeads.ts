/**
 * Where recently written streams stand (their version and last chain hash),
 * so that an adapter need not read a stream's head before every append to
 * chain the new events to it. A head at a version never changes once
 * committed, so a remembered one is right for an append expecting that
 * version however old it is; an append expecting another version reads.
 */
import { setBounded } from "../boundedMap.ts"
import { chainGenesis, type Sha256Hex } from "./chain.ts"

/** A stream's version and the chain hash of its last event. */
export interface StreamHead {
  readonly version: number
  readonly chainHash: Sha256Hex
}

/** The head of a stream with no events. */
export const emptyStreamHead: StreamHead = { version: 0, chainHash: chainGenesis }

/** A bounded map of stream heads that forgets the least recently used first. */
export class StreamHeadCache {
  // A Map iterates in insertion order; re-inserting on every use keeps the least recently used first, to evict
  // (an eighth of the bound at once: boundedMap.ts).
  private readonly heads = new Map<string, StreamHead>()
  private readonly maxStreams: number

  constructor(maxStreams: number) {
    this.maxStreams = maxStreams
  }

  get(streamId: string): StreamHead | undefined {
    return this.heads.get(streamId)
  }

  remember(streamId: string, head: StreamHead): void {
    this.heads.delete(streamId)
    setBounded(this.heads, streamId, head, this.maxStreams)
  }

  forget(streamId?: string): void {
    if (streamId === undefined) this.heads.clear()
    else this.heads.delete(streamId)
  }
}
