/**
 * The replay's streams by id. A `Map` keyed by the ids themselves cost the
 * replay about 0.7 µs an event at half a million streams (README.md,
 * Performance): each event's id is a fresh string from the store, and the Map
 * loads and compares the key strings of its bucket one by one. Keyed by the
 * id's hash, a small integer, the Map compares integers, and one string (or,
 * for the rare ids that share a hash, a few) is compared at the end. The same
 * hash splits the streams between the workers of a parallel replay.
 */

/** 32-bit FNV-1a of a stream id, cut to 30 bits so that it is a small integer on every V8 build. */
export const hashOfStreamId = (streamId: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < streamId.length; i++) hash = Math.imul(hash ^ streamId.charCodeAt(i), 0x01000193)
  return hash & 0x3fffffff
}

/** Which of `count` workers replays the streams of this hash: the one split every part and the parent use. */
export const workerOfHash = (hash: number, count: number): number => hash % count

/** Which of `count` workers replays a stream. */
export const workerOfStream = (streamId: string, count: number): number => workerOfHash(hashOfStreamId(streamId), count)

/**
 * A stream's place in the table: the stream itself while it is open, or the
 * index of its record among the retired streams (retiredStreams.ts), a small
 * integer the Map holds without an object.
 */
export type Slot<T> = T | number

export class StreamTable<T extends { readonly streamId: string }> {
  readonly #byHash = new Map<number, Slot<T> | Array<Slot<T>>>()
  /** The open streams, in the order they were added or revived. */
  readonly #open = new Set<T>()
  readonly #idOfRetired: (index: number) => string
  #size = 0

  /** `idOfRetired` names the stream of a retired slot (retiredStreams.ts). */
  constructor(idOfRetired: (index: number) => string) {
    this.#idOfRetired = idOfRetired
  }

  /** Every stream, open or retired. */
  get size(): number {
    return this.#size
  }

  get openCount(): number {
    return this.#open.size
  }

  #idOf(slot: Slot<T>): string {
    return typeof slot === "number" ? this.#idOfRetired(slot) : slot.streamId
  }

  /** The slot of the stream of this id, whose hash is `hash`. */
  getHashed(streamId: string, hash: number): Slot<T> | undefined {
    const found = this.#byHash.get(hash)
    if (found === undefined || !Array.isArray(found))
      return found !== undefined && this.#idOf(found) === streamId ? found : undefined
    return found.find((slot) => this.#idOf(slot) === streamId)
  }

  readonly get = (streamId: string): Slot<T> | undefined => this.getHashed(streamId, hashOfStreamId(streamId))

  /** The open streams, in the order they were added (or revived). */
  readonly open = (): IterableIterator<T> => this.#open.values()

  /** Adds a stream the table does not hold, whose id's hash is `hash`. */
  add(tracked: T, hash: number): void {
    const found = this.#byHash.get(hash)
    if (found === undefined) this.#byHash.set(hash, tracked)
    else if (Array.isArray(found)) found.push(tracked)
    else this.#byHash.set(hash, [found, tracked])
    this.#open.add(tracked)
    this.#size++
  }

  /** Puts `next` in the place of the stream `streamId` of hash `hash`: retires it, or revives it. */
  replace(streamId: string, hash: number, next: Slot<T>): void {
    const found = this.#byHash.get(hash)
    let previous: Slot<T>
    if (Array.isArray(found)) {
      const at = found.findIndex((slot) => this.#idOf(slot) === streamId)
      if (at < 0) return
      previous = found[at]!
      found[at] = next
    } else {
      if (found === undefined || this.#idOf(found) !== streamId) return
      previous = found
      this.#byHash.set(hash, next)
    }
    if (typeof previous !== "number") this.#open.delete(previous)
    if (typeof next !== "number") this.#open.add(next)
  }
}
