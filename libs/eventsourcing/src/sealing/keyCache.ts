/**
 * The sealer's memory: data keys unwrapped (or known forgotten) for a while,
 * by key id and as each subject's live key, and values made once per key
 * (keyed ids, stored paths read into steps), each bounded (setBounded).
 */
import { setBounded } from "../boundedMap.ts"
import type { CipherKey } from "./cipher.ts"

export interface CachedKey {
  readonly key: CipherKey | undefined // undefined: forgotten
  readonly subjectId: string
  readonly keyId: string
  readonly expiresAt: number
}

export class KeyCache {
  private readonly byKeyId = new Map<string, CachedKey>()
  private readonly liveBySubject = new Map<string, CachedKey>()
  private readonly maxKeys: number
  constructor(maxKeys: number) {
    this.maxKeys = maxKeys
  }

  byKey(keyId: string, now: number): CachedKey | undefined {
    const cached = this.byKeyId.get(keyId)
    return cached !== undefined && cached.expiresAt > now ? cached : undefined
  }

  liveOf(subjectId: string, now: number): CachedKey | undefined {
    const cached = this.liveBySubject.get(subjectId)
    return cached !== undefined && cached.expiresAt > now ? cached : undefined
  }

  keep(entry: CachedKey, live: boolean): void {
    setBounded(this.byKeyId, entry.keyId, entry, this.maxKeys)
    if (live) setBounded(this.liveBySubject, entry.subjectId, entry, this.maxKeys)
  }

  drop(subjectId: string): void {
    this.liveBySubject.delete(subjectId)
    for (const [keyId, entry] of this.byKeyId) if (entry.subjectId === subjectId) this.byKeyId.delete(keyId)
  }
}

/** `make` of a key, made once and then remembered; past `max` keys the oldest go (setBounded). */
export const remembering = <V>(max: number, make: (key: string) => V) => {
  const made = new Map<string, V>()
  return (key: string): V => {
    const known = made.get(key)
    if (known !== undefined) return known
    const value = make(key)
    setBounded(made, key, value, max)
    return value
  }
}
