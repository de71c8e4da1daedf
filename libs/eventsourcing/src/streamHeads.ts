/**
 * Where recently written streams stand (their version and last chain hash),
 * so that an adapter need not read a stream's head before every append to
 * chain the new events to it. A head at a version never changes once
 * committed, so a remembered one is right for an append expecting that
 * version however old it is; an append expecting another version reads.
 */
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
  // A Map iterates in insertion order; re-inserting on every use keeps the least recently used first, to evict.
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
    this.heads.set(streamId, head)
    if (this.heads.size > this.maxStreams) this.forgetLeastRecentlyUsed()
  }

  /**
   * Forgets the least recently used streams, an eighth of the bound at once
   * (never the one just remembered). One at a time, every eviction paid a
   * walk over the entries already deleted at the front of the Map, which V8
   * compacts only now and then: once full, a store's every append cost
   * about 5.5 µs at 10,000 streams and 30 µs at 100,000. A batch pays that
   * walk once.
   */
  private forgetLeastRecentlyUsed(): void {
    let excess = this.heads.size - this.maxStreams + Math.floor(this.maxStreams / 8)
    for (const streamId of this.heads.keys()) {
      if (excess-- <= 0) return
      this.heads.delete(streamId)
    }
  }

  forget(streamId?: string): void {
    if (streamId === undefined) this.heads.clear()
    else this.heads.delete(streamId)
  }
}
