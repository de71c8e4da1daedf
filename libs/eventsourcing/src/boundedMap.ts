/**
 * A Map kept as a bounded cache: the stream heads an adapter remembers
 * (streamHeads.ts), the sealer's data keys, keyed ids and stored field
 * paths (sealing/sealer.ts); exported, the notifier's closed notifications.
 */

/**
 * Sets `key` in `map`; past `max` entries, forgets the oldest (first in
 * insertion order), an eighth of the bound at once and never the entry
 * just set. One at a time, every eviction walked over the entries already
 * deleted at the front of the Map, which V8 compacts only now and then:
 * 25-37 µs an eviction at 100,000 entries in the stream head cache, 5.5
 * µs at 10,000. A batch pays that walk once.
 */
export const setBounded = <K, V>(map: Map<K, V>, key: K, value: V, max: number): void => {
  map.set(key, value)
  if (map.size <= max) return
  let excess = map.size - Math.max(1, max - Math.floor(max / 8))
  for (const oldest of map.keys()) {
    if (excess-- <= 0) return
    map.delete(oldest)
  }
}
