/**
 * Sealing and opening the personal fields of one event's data
 * (docs/architecture.md#sealed-personal-data). For each data subject a plan
 * names in the event, the subject's fields leave the data and come back as
 * one entry of `$sealed`: the subject's keyed id, the data key's id, the
 * field names, and one AES-256-GCM box holding the fields' JSON, bound to
 * the stored stream id, the subject, the key and the field names. One
 * cipher call per subject per event, under a data key cached in memory.
 */
import { randomUUID } from "node:crypto"
import { forgotten } from "@mizan/kernel"
import { Clock, Effect } from "effect"
import { setBounded } from "../boundedMap.ts"
import { StoreError } from "../events.ts"
import { sealedBoxAssociatedData } from "./associatedData.ts"
import {
  type CipherKey,
  cipherKeyOf,
  keyedDigest,
  newDataKey,
  openBytes,
  sealBytes,
  unkeyedDigestHex,
} from "./cipher.ts"
import { KeyRing, type KeyRingError, type KeyRingShape } from "./KeyRing.ts"
import {
  copyWithout,
  isObject,
  itemStepsOf,
  listDepthOf,
  pathOf,
  type Steps,
  startsWith,
  stepsOf,
  valueAt,
  withValueAt,
} from "./paths.ts"
import type { SealedSubject, SealingPlan } from "./plan.ts"
import { type SubjectKey, SubjectKeys, type SubjectKeysShape } from "./SubjectKeys.ts"

/** The data field that holds an event's sealed subjects. */
export const sealedField = "$sealed"

/** Whether stored data holds sealed fields (a store written before sealing holds none). */
export const isSealed = (data: unknown): boolean => isObject(data) && sealedField in data

export interface SealedEntry {
  readonly subject: string
  readonly key: string
  readonly fields: ReadonlyArray<string>
  readonly box: string
}

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

const keyRingFailure = (doing: string) => (error: KeyRingError) =>
  new StoreError({ reason: "Unavailable", detail: `${doing}: ${error.detail}`, cause: error })

/** The stream categories whose ids hold a keyed digest, marked so that a stored id is never digested twice. */
const keyedPartPrefix = "keyed:"

interface CachedKey {
  readonly key: CipherKey | undefined // undefined: forgotten
  readonly subjectId: string
  readonly keyId: string
  readonly expiresAt: number
}

class KeyCache {
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

/** One subject's fields an event holds, to seal: their paths, their names as stored, their values. */
interface PlannedFields {
  readonly fields: Array<Steps>
  readonly names: Array<string>
  readonly values: Array<unknown>
}

interface PlannedSubject extends PlannedFields {
  readonly subjectId: string
}

/** `make` of a key, made once and then remembered; past `max` keys the oldest go (setBounded). */
const remembering = <V>(max: number, make: (key: string) => V) => {
  const made = new Map<string, V>()
  return (key: string): V => {
    const known = made.get(key)
    if (known !== undefined) return known
    const value = make(key)
    setBounded(made, key, value, max)
    return value
  }
}

/** A plan's subject with its paths read into steps once, when the sealer is made. */
interface CompiledSubject {
  readonly kind: string
  readonly identifiedBy: Steps
  readonly fields: ReadonlyArray<Steps>
  /** The fields' paths as a stored entry names them, when none is in a list's items (`undefined` otherwise). */
  readonly names: ReadonlyArray<string> | undefined
  readonly onlyWhenIdentified: boolean
  readonly identifiedInClear: boolean
  readonly otherwiseStreamAt: Steps | undefined
}

/**
 * A plan's subject, its paths read into steps. A subject identified inside
 * a list's items owns fields of its own item only: a field outside the
 * item would belong to every item's subject at once. Checked here, when
 * the sealer is made, naming the event type.
 */
const compileSubject = (type: string, subject: SealedSubject): CompiledSubject => {
  const identifiedBy = stepsOf(subject.identifiedBy)
  const fields = subject.fields.map(stepsOf)
  const depth = listDepthOf(identifiedBy)
  if (depth !== undefined) {
    const list = identifiedBy.slice(0, depth)
    const outside = fields.find((field) => !startsWith(field, list))
    if (outside !== undefined)
      throw new Error(
        `sealing plan of ${type}: ${pathOf(outside)} is not in the items of ${pathOf(list)}, where the subject ${subject.kind} is identified`,
      )
  }
  const listFree = depth === undefined && fields.every((field) => listDepthOf(field) === undefined)
  return {
    kind: subject.kind,
    identifiedBy,
    fields,
    names: listFree ? fields.map(pathOf) : undefined,
    onlyWhenIdentified: subject.onlyWhenIdentified === true,
    identifiedInClear: subject.identifiedInClear === true,
    otherwiseStreamAt: subject.otherwiseStreamAt === undefined ? undefined : stepsOf(subject.otherwiseStreamAt),
  }
}

const compilePlan = (plan: SealingPlan): ReadonlyMap<string, ReadonlyArray<CompiledSubject>> =>
  new Map(
    Object.entries(plan.events).map(([type, subjects]) => [
      type,
      subjects.map((subject) => compileSubject(type, subject)),
    ]),
  )

/**
 * The subjects `subject` stands for in `data`: itself, or, when its
 * identifying field sits in a list's items, one per item, its paths into
 * that list narrowed to the item (`sharingParamList[0].sharingIdentity`).
 */
const subjectsIn = (data: Record<string, unknown>, subject: CompiledSubject): ReadonlyArray<CompiledSubject> => {
  const depth = listDepthOf(subject.identifiedBy)
  if (depth === undefined) return [subject]
  const list = subject.identifiedBy.slice(0, depth)
  const items = valueAt(data, list.slice(0, -1))
  if (!Array.isArray(items)) return []
  return items.flatMap((_item, index) => {
    const narrowed = (steps: Steps) =>
      startsWith(steps, list) ? [...list.slice(0, -1), index, ...steps.slice(depth)] : steps
    return subjectsIn(data, {
      ...subject,
      identifiedBy: narrowed(subject.identifiedBy),
      fields: subject.fields.map(narrowed),
    })
  })
}

/** The most stored field paths kept read into steps: a plan's paths times the positions its lists reach. */
const storedPathsMax = 10_000

/** Makes the sealer of `plan`, loading (or, in a new store, making) the secret of the keyed ids. */
export const makeSealer = (
  plan: SealingPlan,
  options: SealingOptions = {},
): Effect.Effect<Sealer, StoreError, KeyRing | SubjectKeys> =>
  Effect.gen(function* () {
    const compiled = compilePlan(plan)
    const settings = { ...sealingDefaults, ...options }
    const clock = yield* Clock.Clock
    const keyRing = yield* KeyRing
    const subjectKeys = yield* SubjectKeys
    const cache = new KeyCache(settings.keyCacheMaxKeys)
    const sealedCategories = new Set(plan.streams.map((s) => s.category))

    const unwrap = (row: SubjectKey) =>
      row.wrappedKey === undefined
        ? Effect.succeed(undefined)
        : Effect.mapError(
            keyRing.unwrap({ wrapped: row.wrappedKey, masterKeyId: row.masterKeyId }),
            keyRingFailure(`unwrapping data key ${row.keyId}`),
          )

    /**
     * The subject's live key row: the stored one, or a new random key added
     * to the table, with its bytes (`madeHere`) when the table kept this
     * one and not another writer's, so that it needs no unwrapping.
     */
    const liveKeyRow = (
      subjectId: string,
      now: number,
    ): Effect.Effect<{ readonly row: SubjectKey; readonly madeHere?: Buffer }, StoreError> =>
      Effect.flatMap(subjectKeys.liveKeyOf(subjectId), (stored) => {
        if (stored !== undefined) return Effect.succeed({ row: stored })
        const dataKey = newDataKey()
        const keyId = randomUUID()
        return Effect.flatMap(
          Effect.mapError(keyRing.wrap(dataKey), keyRingFailure("wrapping a new data key")),
          ({ wrapped, masterKeyId }) =>
            Effect.map(
              subjectKeys.addKey({ keyId, subjectId, wrappedKey: wrapped, masterKeyId, createdAt: now }),
              (row) => (row.keyId === keyId ? { row, madeHere: dataKey } : { row }),
            ),
        )
      })

    /** A live key's bytes: as made here, or unwrapped from its row. */
    const bytesOf = (live: { readonly row: SubjectKey; readonly madeHere?: Buffer }) =>
      live.madeHere === undefined ? unwrap(live.row) : Effect.succeed(live.madeHere)

    const equalityBytes = yield* bytesOf(yield* liveKeyRow(equalitySubjectId, yield* Clock.currentTimeMillis))
    if (equalityBytes === undefined)
      return yield* new StoreError({ reason: "Corrupt", detail: "the key table's secret for keyed ids is destroyed" })
    const equalitySecret = cipherKeyOf(equalityBytes)

    // A keyed id costs an HMAC; the same card, member or member's stream comes back often, so its id is remembered:
    // a subject's by kind, then by value (no key string put together per lookup: the plan names a handful of kinds).
    const subjectIdsByKind = new Map<string, (value: string) => string>()
    const subjectIdOf = (kind: string, value: string) => {
      let ofKind = subjectIdsByKind.get(kind)
      if (ofKind === undefined) {
        ofKind = remembering(settings.keyCacheMaxKeys, (each) => `${kind}:${keyedDigest(equalitySecret, kind, each)}`)
        subjectIdsByKind.set(kind, ofKind)
      }
      return ofKind(value)
    }

    /** `category/keyed:HMAC` of a stream id of a sealed category whose personal part is in clear. */
    const keyedStreamIdOf = remembering(settings.keyCacheMaxKeys, (streamId) => {
      const slash = streamId.indexOf("/")
      const category = streamId.slice(0, slash)
      return `${category}/${keyedPartPrefix}${keyedDigest(equalitySecret, `stream ${category}`, streamId.slice(slash + 1))}`
    })

    const storedStreamIdOf = (streamId: string) => {
      const slash = streamId.indexOf("/")
      if (slash < 0) return streamId
      if (!sealedCategories.has(streamId.slice(0, slash)) || streamId.startsWith(keyedPartPrefix, slash + 1))
        return streamId
      return keyedStreamIdOf(streamId)
    }

    /** A key row and its bytes (undefined: forgotten), kept in the cache until `keyCacheMs` from `now`; `live` as its subject's live key too. */
    const cacheKeyRow = (row: SubjectKey, bytes: Uint8Array | undefined, now: number, live: boolean): CachedKey => {
      const entry = {
        key: bytes === undefined ? undefined : cipherKeyOf(bytes),
        subjectId: row.subjectId,
        keyId: row.keyId,
        expiresAt: now + settings.keyCacheMs,
      }
      cache.keep(entry, live)
      return entry
    }

    const liveKey = (subjectId: string): Effect.Effect<CachedKey, StoreError> =>
      Effect.suspend(() => {
        const now = clock.currentTimeMillisUnsafe()
        const cached = cache.liveOf(subjectId, now)
        if (cached !== undefined) return Effect.succeed(cached)
        return Effect.flatMap(liveKeyRow(subjectId, now), (live) =>
          Effect.map(bytesOf(live), (bytes) => cacheKeyRow(live.row, bytes, now, true)),
        )
      })

    const keyById = (keyId: string, eventId: string): Effect.Effect<CachedKey, StoreError> =>
      Effect.suspend(() => {
        const now = clock.currentTimeMillisUnsafe()
        const cached = cache.byKey(keyId, now)
        if (cached !== undefined) return Effect.succeed(cached)
        return Effect.flatMap(subjectKeys.keyById(keyId), (row) =>
          row === undefined
            ? Effect.fail(
                new StoreError({
                  reason: "Corrupt",
                  detail: `event ${eventId} is sealed under data key ${keyId}, which the key table does not hold`,
                }),
              )
            : Effect.map(unwrap(row), (bytes) => cacheKeyRow(row, bytes, now, false)),
        )
      })

    /**
     * The subject's fields present in `data` that hold a value (a
     * `[forgotten]` field has nothing left to seal) into `into`: their
     * paths, names and values, each read once.
     */
    const fieldsToSeal = (data: Record<string, unknown>, subject: CompiledSubject, into: PlannedFields): void => {
      if (subject.onlyWhenIdentified && valueAt(data, subject.identifiedBy) === undefined) return
      const keep = (field: Steps, name: string) => {
        const value = valueAt(data, field)
        if (value === undefined || value === forgotten) return
        into.fields.push(field)
        into.names.push(name)
        into.values.push(value)
      }
      const names = subject.names
      if (names !== undefined) for (let i = 0; i < names.length; i++) keep(subject.fields[i]!, names[i]!)
      else for (const field of subject.fields) for (const item of itemStepsOf(data, field)) keep(item, pathOf(item))
    }

    const streamSubjectIdOf = (kind: string, storedStreamId: string) => subjectIdOf(kind, `stream ${storedStreamId}`)

    /**
     * The id of the subject `data` names by `identifiedBy`; when it names
     * none, the subject of the stream `otherwiseStreamAt` names, or else of
     * the event's own stream.
     */
    const subjectIn = (storedStreamId: string, data: Record<string, unknown>, subject: CompiledSubject) => {
      const identifying = valueAt(data, subject.identifiedBy)
      if (identifying === undefined || identifying === forgotten) {
        const owner = subject.otherwiseStreamAt === undefined ? undefined : valueAt(data, subject.otherwiseStreamAt)
        return streamSubjectIdOf(
          subject.kind,
          typeof owner === "string" && owner !== "" ? storedStreamIdOf(owner) : storedStreamId,
        )
      }
      const value = typeof identifying === "string" ? identifying : JSON.stringify(identifying)
      return subjectIdOf(subject.kind, subject.identifiedInClear ? unkeyedDigestHex(value) : value)
    }

    /** `body` as an effect: a StoreError it throws is the effect's failure. */
    const attempt = <A>(body: () => A): Effect.Effect<A, StoreError> => {
      try {
        return Effect.succeed(body())
      } catch (error) {
        if (error instanceof StoreError) return Effect.fail(error)
        throw error
      }
    }

    /** The entry of one subject's fields, sealed under its live key; throws when the key row holds no key. */
    const sealSubjectWith = (key: CachedKey, storedStreamId: string, planned: PlannedSubject): SealedEntry => {
      if (key.key === undefined) throw new StoreError({ reason: "Corrupt", detail: `live key ${key.keyId} has no key` })
      const { names, values } = planned
      const clear: Record<string, unknown> = {}
      for (let i = 0; i < names.length; i++) clear[names[i] as string] = values[i]
      const entry = { subject: planned.subjectId, key: key.keyId, fields: names }
      const box = sealBytes(
        key.key,
        Buffer.from(JSON.stringify(clear), "utf8"),
        sealedBoxAssociatedData(storedStreamId, entry),
      )
      return { ...entry, box }
    }

    /**
     * The fields to seal, by subject id: a subject identified inside a
     * list's items is one subject per item (each sharing member), and the
     * items of one subject (a member named twice) share its one cipher.
     */
    const fieldsBySubject = (
      storedStreamId: string,
      data: Record<string, unknown>,
      subjects: ReadonlyArray<CompiledSubject>,
    ): ReadonlyArray<PlannedSubject> => {
      const planned: Array<PlannedSubject> = []
      for (const each of subjects)
        for (const subject of subjectsIn(data, each)) {
          const fields: PlannedFields = { fields: [], names: [], values: [] }
          fieldsToSeal(data, subject, fields)
          if (fields.fields.length === 0) continue
          const subjectId = subjectIn(storedStreamId, data, subject)
          const same = planned.find((other) => other.subjectId === subjectId)
          if (same === undefined) planned.push({ subjectId, ...fields })
          else {
            same.fields.push(...fields.fields)
            same.names.push(...fields.names)
            same.values.push(...fields.values)
          }
        }
      return planned
    }

    const sealClear = (storedStreamId: string, type: string, data: unknown): Effect.Effect<unknown, StoreError> => {
      const subjects = compiled.get(type)
      if (subjects === undefined || !isObject(data)) return Effect.succeed(data)
      const planned = fieldsBySubject(storedStreamId, data, subjects)
      if (planned.length === 0) return Effect.succeed(data)
      const sealedWith = (keys: ReadonlyArray<CachedKey>) =>
        attempt(() => {
          const entries = planned.map((subject, i) => sealSubjectWith(keys[i] as CachedKey, storedStreamId, subject))
          // Top-level fields are left out of one fresh copy; nested ones go through copies of their objects and lists.
          const topLevel = new Set<string>()
          const nested: Array<Steps> = []
          for (const { fields } of planned)
            for (const field of fields)
              if (field.length === 1) topLevel.add(field[0] as string)
              else nested.push(field)
          let kept = copyWithout(data, topLevel)
          for (const field of nested) kept = withValueAt(kept, field, undefined) as Record<string, unknown>
          kept[sealedField] = entries
          return kept
        })
      // Most appends find every live key cached: sealed then and there, with no effect per subject.
      const now = clock.currentTimeMillisUnsafe()
      const cached = planned.map(({ subjectId }) => cache.liveOf(subjectId, now))
      if (cached.every((key) => key !== undefined)) return sealedWith(cached as ReadonlyArray<CachedKey>)
      return Effect.flatMap(
        Effect.forEach(planned, ({ subjectId }) => liveKey(subjectId)),
        sealedWith,
      )
    }

    /**
     * Data that comes sealed already (`import --seal` of a store sealed
     * under an earlier plan, whose newer personal fields are still in
     * clear) is opened first and sealed again whole, under the plan in
     * force: sealing only its clear fields would key them by the stream,
     * their identifying field being sealed away, and replace its entries.
     */
    const seal: Sealer["seal"] = (storedStreamId, type, data) =>
      isSealed(data)
        ? Effect.flatMap(open(storedStreamId, `a sealed ${type} appended again`, data), (clear) =>
            sealClear(storedStreamId, type, clear),
          )
        : sealClear(storedStreamId, type, data)

    /** One entry's fields, opened with `key` (`[forgotten]` each, when it is destroyed); throws when the box does not open. */
    const openWith = (
      key: CipherKey | undefined,
      storedStreamId: string,
      eventId: string,
      entry: SealedEntry,
    ): Record<string, unknown> => {
      if (key === undefined) return Object.fromEntries(entry.fields.map((f) => [f, forgotten]))
      const clear = openBytes(key, entry.box, sealedBoxAssociatedData(storedStreamId, entry))
      if (clear === undefined)
        throw new StoreError({
          reason: "Corrupt",
          detail: `event ${eventId} in ${storedStreamId}: the sealed fields ${entry.fields.join(", ")} do not open (altered, or moved from another stream)`,
        })
      return JSON.parse(clear.toString("utf8")) as Record<string, unknown>
    }

    // A stored entry names its fields by their concrete paths: each read into steps once, then remembered.
    const stepsOfStored = remembering(storedPathsMax, stepsOf)

    const merged = (data: Record<string, unknown>, opened: ReadonlyArray<Record<string, unknown>>) => {
      const { [sealedField]: _sealed, ...rest } = data
      // `rest` is a fresh object: top-level fields go into it directly, nested ones through copies of their objects and lists.
      let clear: Record<string, unknown> = rest
      for (const fields of opened)
        for (const [path, value] of Object.entries(fields)) {
          const steps = stepsOfStored(path)
          if (steps.length > 1) clear = withValueAt(clear, steps, value) as Record<string, unknown>
          else clear[path] = value
        }
      return clear
    }

    const open: Sealer["open"] = (storedStreamId, eventId, data) => {
      if (!isObject(data)) return Effect.succeed(data)
      const entries = data[sealedField] as ReadonlyArray<SealedEntry> | undefined
      if (!Array.isArray(entries)) return Effect.succeed(data)
      // Most reads find every key cached: opened then and there, with no effect per entry.
      const now = clock.currentTimeMillisUnsafe()
      const cached = entries.map((entry) => cache.byKey(entry.key, now))
      if (cached.every((entry) => entry !== undefined))
        return attempt(() =>
          merged(
            data,
            entries.map((entry, i) => openWith(cached[i]?.key, storedStreamId, eventId, entry)),
          ),
        )
      return Effect.map(
        Effect.forEach(entries, (entry) =>
          Effect.flatMap(keyById(entry.key, eventId), ({ key }) =>
            attempt(() => openWith(key, storedStreamId, eventId, entry)),
          ),
        ),
        (opened) => merged(data, opened),
      )
    }

    const loadKeysOf: Sealer["loadKeysOf"] = (stored) =>
      Effect.suspend(() => {
        const now = clock.currentTimeMillisUnsafe()
        const missing = new Set<string>()
        for (const data of stored) {
          const entries = isObject(data) ? data[sealedField] : undefined
          if (!Array.isArray(entries)) continue
          for (const entry of entries as ReadonlyArray<SealedEntry>)
            if (typeof entry?.key === "string" && cache.byKey(entry.key, now) === undefined) missing.add(entry.key)
        }
        if (missing.size === 0) return Effect.void
        return Effect.flatMap(subjectKeys.keysById([...missing]), (rows) =>
          Effect.forEach(rows, (row) => Effect.map(unwrap(row), (bytes) => cacheKeyRow(row, bytes, now, false)), {
            discard: true,
          }),
        )
      })

    const forget: Sealer["forget"] = (subjectId, by) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.tap(subjectKeys.forget(subjectId, now, by), () => Effect.sync(() => cache.drop(subjectId))),
      )

    const seals = (type: string): boolean => compiled.has(type)
    return {
      subjectIdOf,
      streamSubjectIdOf: (kind, streamId) => streamSubjectIdOf(kind, storedStreamIdOf(streamId)),
      storedStreamId: storedStreamIdOf,
      seals,
      seal,
      open,
      loadKeysOf,
      forget,
    }
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
