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

export class StreamTable<T extends { readonly streamId: string }> {
  readonly #byHash = new Map<number, T | Array<T>>()
  readonly #inOrder: Array<T> = []

  get size(): number {
    return this.#inOrder.length
  }

  /** The stream of this id, whose hash is `hash`. */
  getHashed(streamId: string, hash: number): T | undefined {
    const found = this.#byHash.get(hash)
    if (found === undefined || !Array.isArray(found)) return found?.streamId === streamId ? found : undefined
    return found.find((tracked) => tracked.streamId === streamId)
  }

  readonly get = (streamId: string): T | undefined => this.getHashed(streamId, hashOfStreamId(streamId))

  readonly has = (streamId: string): boolean => this.get(streamId) !== undefined

  /** In the order they were added. */
  readonly values = (): IterableIterator<T> => this.#inOrder.values()

  /** Adds a stream the table does not hold, whose id's hash is `hash`. */
  add(tracked: T, hash: number): void {
    const found = this.#byHash.get(hash)
    if (found === undefined) this.#byHash.set(hash, tracked)
    else if (Array.isArray(found)) found.push(tracked)
    else this.#byHash.set(hash, [found, tracked])
    this.#inOrder.push(tracked)
  }
}
