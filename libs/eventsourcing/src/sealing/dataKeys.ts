/**
 * The data keys a sealer seals and opens with: each subject's live key (made
 * and wrapped on first use), a key by its id, every key a page of stored
 * events names at once, and a subject's keys destroyed. Unwrapped keys are
 * cached for `keyCacheMs`, so most seals and opens find theirs in memory.
 */
import { randomUUID } from "node:crypto"
import { Clock, Effect } from "effect"
import { StoreError } from "../events.ts"
import { cipherKeyOf, newDataKey } from "./cipher.ts"
import type { KeyRingError, KeyRingShape } from "./KeyRing.ts"
import type { CachedKey, KeyCache } from "./keyCache.ts"
import { isObject } from "./paths.ts"
import type { SubjectKey, SubjectKeysShape } from "./SubjectKeys.ts"
import { type SealedEntry, sealedField } from "./sealedEntry.ts"

/** What the key operations work with: the ring that wraps keys, the table that keeps them, the cache and its clock. */
export interface DataKeys {
  readonly keyRing: KeyRingShape
  readonly subjectKeys: SubjectKeysShape
  readonly cache: KeyCache
  readonly clock: Clock.Clock
  readonly keyCacheMs: number
}

/** A live key row, with its bytes (`madeHere`) when this process made it and so needs no unwrapping. */
interface LiveKeyRow {
  readonly row: SubjectKey
  readonly madeHere?: Buffer
}

const keyRingFailure = (doing: string) => (error: KeyRingError) =>
  new StoreError({ reason: "Unavailable", detail: `${doing}: ${error.detail}`, cause: error })

/** A key row's bytes, unwrapped by the ring; undefined when the row's key is destroyed (forgotten). */
export const unwrapKey = (keys: DataKeys, row: SubjectKey): Effect.Effect<Uint8Array | undefined, StoreError> =>
  row.wrappedKey === undefined
    ? Effect.succeed(undefined)
    : Effect.mapError(
        keys.keyRing.unwrap({ wrapped: row.wrappedKey, masterKeyId: row.masterKeyId }),
        keyRingFailure(`unwrapping data key ${row.keyId}`),
      )

/**
 * The subject's live key row: the stored one, or a new random key added
 * to the table, with its bytes (`madeHere`) when the table kept this
 * one and not another writer's, so that it needs no unwrapping.
 */
export const liveKeyRow = (keys: DataKeys, subjectId: string, now: number): Effect.Effect<LiveKeyRow, StoreError> =>
  Effect.flatMap(keys.subjectKeys.liveKeyOf(subjectId), (stored) => {
    if (stored !== undefined) return Effect.succeed({ row: stored })
    const dataKey = newDataKey()
    const keyId = randomUUID()
    return Effect.flatMap(
      Effect.mapError(keys.keyRing.wrap(dataKey), keyRingFailure("wrapping a new data key")),
      ({ wrapped, masterKeyId }) =>
        Effect.map(
          keys.subjectKeys.addKey({ keyId, subjectId, wrappedKey: wrapped, masterKeyId, createdAt: now }),
          (row) => (row.keyId === keyId ? { row, madeHere: dataKey } : { row }),
        ),
    )
  })

/** A live key's bytes: as made here, or unwrapped from its row. */
export const bytesOf = (keys: DataKeys, live: LiveKeyRow): Effect.Effect<Uint8Array | undefined, StoreError> =>
  live.madeHere === undefined ? unwrapKey(keys, live.row) : Effect.succeed(live.madeHere)

/** A key row and its bytes (undefined: forgotten), kept in the cache until `keyCacheMs` from `now`; `live` as its subject's live key too. */
const cacheKeyRow = (
  keys: DataKeys,
  row: SubjectKey,
  bytes: Uint8Array | undefined,
  now: number,
  live: boolean,
): CachedKey => {
  const entry = {
    key: bytes === undefined ? undefined : cipherKeyOf(bytes),
    subjectId: row.subjectId,
    keyId: row.keyId,
    expiresAt: now + keys.keyCacheMs,
  }
  keys.cache.keep(entry, live)
  return entry
}

/** The subject's live key, from the cache or the table (made there on first use). */
export const liveKey = (keys: DataKeys, subjectId: string): Effect.Effect<CachedKey, StoreError> =>
  Effect.suspend(() => {
    const now = keys.clock.currentTimeMillisUnsafe()
    const cached = keys.cache.liveOf(subjectId, now)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.flatMap(liveKeyRow(keys, subjectId, now), (live) =>
      Effect.map(bytesOf(keys, live), (bytes) => cacheKeyRow(keys, live.row, bytes, now, true)),
    )
  })

/** The key `keyId` an event of `eventId` is sealed under; a key the table does not hold is a corrupt store. */
export const keyById = (keys: DataKeys, keyId: string, eventId: string): Effect.Effect<CachedKey, StoreError> =>
  Effect.suspend(() => {
    const now = keys.clock.currentTimeMillisUnsafe()
    const cached = keys.cache.byKey(keyId, now)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.flatMap(keys.subjectKeys.keyById(keyId), (row) =>
      row === undefined
        ? Effect.fail(
            new StoreError({
              reason: "Corrupt",
              detail: `event ${eventId} is sealed under data key ${keyId}, which the key table does not hold`,
            }),
          )
        : Effect.map(unwrapKey(keys, row), (bytes) => cacheKeyRow(keys, row, bytes, now, false)),
    )
  })

/** Every key the stored data name that the cache does not hold, loaded in one lookup of the table. */
export const loadKeysOf = (keys: DataKeys, stored: ReadonlyArray<unknown>): Effect.Effect<void, StoreError> =>
  Effect.suspend(() => {
    const now = keys.clock.currentTimeMillisUnsafe()
    const missing = new Set<string>()
    for (const data of stored) {
      const entries = isObject(data) ? data[sealedField] : undefined
      if (!Array.isArray(entries)) continue
      for (const entry of entries as ReadonlyArray<SealedEntry>)
        if (typeof entry?.key === "string" && keys.cache.byKey(entry.key, now) === undefined) missing.add(entry.key)
    }
    if (missing.size === 0) return Effect.void
    return Effect.flatMap(keys.subjectKeys.keysById([...missing]), (rows) =>
      Effect.forEach(
        rows,
        (row) => Effect.map(unwrapKey(keys, row), (bytes) => cacheKeyRow(keys, row, bytes, now, false)),
        {
          discard: true,
        },
      ),
    )
  })

/** Destroys the subject's data keys in the table and drops them from the cache. */
export const forgetKeys = (keys: DataKeys, subjectId: string, by: string): Effect.Effect<number, StoreError> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.tap(keys.subjectKeys.forget(subjectId, now, by), () => Effect.sync(() => keys.cache.drop(subjectId))),
  )
