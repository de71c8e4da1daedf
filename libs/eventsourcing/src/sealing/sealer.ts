/**
 * Sealing and opening the personal fields of one event's data
 * (docs/architecture.md#sealed-personal-data). For each data subject a plan
 * names in the event, the subject's fields leave the data and come back as
 * one entry of `$sealed`: the subject's keyed id, the data key's id, the
 * field names, and one AES-256-GCM box holding the fields' JSON, bound to
 * the stored stream id, the subject, the key and the field names. One
 * cipher call per subject per event, under a data key cached in memory.
 */
import { Clock, Effect } from "effect"
import { StoreError } from "../events.ts"
import { attempt, mergedOpened, openWith, sealedCopy } from "./boxes.ts"
import { cipherKeyOf } from "./cipher.ts"
import { type CompiledSubject, compilePlan, fieldsBySubject } from "./compiledPlan.ts"
import { bytesOf, type DataKeys, forgetKeys, keyById, liveKey, liveKeyRow, loadKeysOf } from "./dataKeys.ts"
import { KeyRing, type KeyRingShape } from "./KeyRing.ts"
import { type CachedKey, KeyCache, remembering } from "./keyCache.ts"
import { isObject, type Steps, stepsOf } from "./paths.ts"
import type { SealingPlan } from "./plan.ts"
import { SubjectKeys, type SubjectKeysShape } from "./SubjectKeys.ts"
import { isSealed, type SealedEntry, sealedField } from "./sealedEntry.ts"
import { makeSubjectIds, type SubjectIds } from "./subjectIds.ts"

export { isSealed, type SealedEntry, sealedField } from "./sealedEntry.ts"

export interface SealingOptions {
  /**
   * How long an unwrapped data key (or the news that it is forgotten) is
   * kept in memory. A forget in another process reaches this one within
   * this bound; within it, this process may still open the subject's fields
   * and seal new ones under the destroyed key (which then no one can open).
   */
  readonly keyCacheMs?: number
  /** The most data keys kept in memory; the oldest go first. */
  readonly keyCacheMaxKeys?: number
}

export const sealingDefaults = {
  keyCacheMs: 30_000,
  keyCacheMaxKeys: 10_000,
} as const satisfies Required<SealingOptions>

/** The key table row that holds the secret of the keyed ids, wrapped like any data key. */
export const equalitySubjectId = "$equality"

export interface Sealer {
  /** `kind:` and the keyed HMAC of `value`: the id of a data subject. */
  readonly subjectIdOf: (kind: string, value: string) => string
  /**
   * The id of the subject of `kind` that an event of `streamId` names by no
   * value of its own (an order created without an eid: its payer's email
   * and customer id), see SealedSubject.identifiedBy.
   */
  readonly streamSubjectIdOf: (kind: string, streamId: string) => string
  /** The id a stream is stored under: a sealed category's personal part becomes its keyed HMAC. */
  readonly storedStreamId: (streamId: string) => string
  /** Whether the plan seals any field of this event type. */
  readonly seals: (type: string) => boolean
  readonly seal: (storedStreamId: string, type: string, data: unknown) => Effect.Effect<unknown, StoreError>
  /** The data with its fields back, or `[forgotten]` in the fields of a forgotten subject. */
  readonly open: (storedStreamId: string, eventId: string, data: unknown) => Effect.Effect<unknown, StoreError>
  /**
   * Loads into the cache, in one lookup of the key table, every data key
   * that these stored events' data name and the cache does not hold: what
   * a read does before it opens a page, so that the page's events open with
   * no lookup each. A key the table does not hold is left for `open` to
   * report, naming its event.
   */
  readonly loadKeysOf: (stored: ReadonlyArray<unknown>) => Effect.Effect<void, StoreError>
  /** Destroys the subject's data keys (see SubjectKeys.forget) and drops them from this process's cache. */
  readonly forget: (subjectId: string, by: string) => Effect.Effect<number, StoreError>
}

/** The most stored field paths kept read into steps: a plan's paths times the positions its lists reach. */
const storedPathsMax = 10_000

/** What a sealer's operations share once it is made: the plan read, its keys, its ids, its stored paths read. */
interface SealerParts {
  readonly compiled: ReadonlyMap<string, ReadonlyArray<CompiledSubject>>
  readonly keys: DataKeys
  readonly ids: SubjectIds
  readonly stepsOfStored: (path: string) => Steps
}

/** Data in clear with the plan's fields of its type sealed, each subject's under its live key. */
const sealClear = (
  parts: SealerParts,
  storedStreamId: string,
  type: string,
  data: unknown,
): Effect.Effect<unknown, StoreError> => {
  const subjects = parts.compiled.get(type)
  if (subjects === undefined || !isObject(data)) return Effect.succeed(data)
  const planned = fieldsBySubject(parts.ids, storedStreamId, data, subjects)
  if (planned.length === 0) return Effect.succeed(data)
  const sealedWith = (keys: ReadonlyArray<CachedKey>) => attempt(() => sealedCopy(data, storedStreamId, planned, keys))
  // Most appends find every live key cached: sealed then and there, with no effect per subject.
  const now = parts.keys.clock.currentTimeMillisUnsafe()
  const cached = planned.map(({ subjectId }) => parts.keys.cache.liveOf(subjectId, now))
  if (cached.every((key) => key !== undefined)) return sealedWith(cached as ReadonlyArray<CachedKey>)
  return Effect.flatMap(
    Effect.forEach(planned, ({ subjectId }) => liveKey(parts.keys, subjectId)),
    sealedWith,
  )
}

/** Stored data with its sealed entries opened, each under its key (`[forgotten]` where the key is destroyed). */
const openSealed = (
  parts: SealerParts,
  storedStreamId: string,
  eventId: string,
  data: unknown,
): Effect.Effect<unknown, StoreError> => {
  if (!isObject(data)) return Effect.succeed(data)
  const entries = data[sealedField] as ReadonlyArray<SealedEntry> | undefined
  if (!Array.isArray(entries)) return Effect.succeed(data)
  // Most reads find every key cached: opened then and there, with no effect per entry.
  const now = parts.keys.clock.currentTimeMillisUnsafe()
  const cached = entries.map((entry) => parts.keys.cache.byKey(entry.key, now))
  if (cached.every((entry) => entry !== undefined))
    return attempt(() =>
      mergedOpened(
        data,
        entries.map((entry, i) => openWith(cached[i]?.key, storedStreamId, eventId, entry)),
        parts.stepsOfStored,
      ),
    )
  return Effect.map(
    Effect.forEach(entries, (entry) =>
      Effect.flatMap(keyById(parts.keys, entry.key, eventId), ({ key }) =>
        attempt(() => openWith(key, storedStreamId, eventId, entry)),
      ),
    ),
    (opened) => mergedOpened(data, opened, parts.stepsOfStored),
  )
}

/**
 * Data that comes sealed already (`import --seal` of a store sealed
 * under an earlier plan, whose newer personal fields are still in
 * clear) is opened first and sealed again whole, under the plan in
 * force: sealing only its clear fields would key them by the stream,
 * their identifying field being sealed away, and replace its entries.
 */
const seal = (parts: SealerParts, storedStreamId: string, type: string, data: unknown) =>
  isSealed(data)
    ? Effect.flatMap(openSealed(parts, storedStreamId, `a sealed ${type} appended again`, data), (clear) =>
        sealClear(parts, storedStreamId, type, clear),
      )
    : sealClear(parts, storedStreamId, type, data)

/** The key table's secret of the keyed ids: its row made on a new store's first use. */
const equalitySecretOf = Effect.fnUntraced(function* (keys: DataKeys) {
  const equalityBytes = yield* bytesOf(keys, yield* liveKeyRow(keys, equalitySubjectId, yield* Clock.currentTimeMillis))
  if (equalityBytes === undefined)
    return yield* new StoreError({ reason: "Corrupt", detail: "the key table's secret for keyed ids is destroyed" })
  return cipherKeyOf(equalityBytes)
})

/** Makes the sealer of `plan`, loading (or, in a new store, making) the secret of the keyed ids. */
export const makeSealer = Effect.fnUntraced(function* (plan: SealingPlan, options: SealingOptions = {}) {
  const compiled = compilePlan(plan)
  const settings = { ...sealingDefaults, ...options }
  const keys: DataKeys = {
    clock: yield* Clock.Clock,
    keyRing: yield* KeyRing,
    subjectKeys: yield* SubjectKeys,
    cache: new KeyCache(settings.keyCacheMaxKeys),
    keyCacheMs: settings.keyCacheMs,
  }
  const sealedCategories = new Set(plan.streams.map((s) => s.category))
  const ids = makeSubjectIds(yield* equalitySecretOf(keys), settings.keyCacheMaxKeys, sealedCategories)
  // A stored entry names its fields by their concrete paths: each read into steps once, then remembered.
  const parts: SealerParts = { compiled, keys, ids, stepsOfStored: remembering(storedPathsMax, stepsOf) }
  const sealer: Sealer = {
    subjectIdOf: ids.subjectIdOf,
    streamSubjectIdOf: (kind, streamId) => ids.streamSubjectIdOf(kind, ids.storedStreamIdOf(streamId)),
    storedStreamId: ids.storedStreamIdOf,
    seals: (type) => compiled.has(type),
    seal: (storedStreamId, type, data) => seal(parts, storedStreamId, type, data),
    open: (storedStreamId, eventId, data) => openSealed(parts, storedStreamId, eventId, data),
    loadKeysOf: (stored) => loadKeysOf(keys, stored),
    forget: (subjectId, by) => forgetKeys(keys, subjectId, by),
  }
  return sealer
})

/**
 * The sealer of `plan` over a key table and a key ring held as values (a
 * store's own `subjectKeys`, a key file's ring): what a tool that opens a
 * raw store by hand (the audit's import and reads, a benchmark) seals and
 * opens with, where a service takes `layerSealedEventStore`.
 */
export const makeSealerOn = (
  plan: SealingPlan,
  keys: SubjectKeysShape,
  keyRing: KeyRingShape,
  options: SealingOptions = {},
): Effect.Effect<Sealer, StoreError> =>
  makeSealer(plan, options).pipe(Effect.provideService(SubjectKeys, keys), Effect.provideService(KeyRing, keyRing))
