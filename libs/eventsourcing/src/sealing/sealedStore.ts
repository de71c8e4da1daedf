/**
 * The sealed store: any EventStore, with every personal field sealed on its
 * way in and opened on its way out (sealer.ts). It sits above the adapter,
 * so the adapter stores, chains and signs the sealed bytes: `audit verify`
 * reads the adapter itself, and a forget, which changes no event, leaves
 * the chain whole.
 */
import { isSha256Hex } from "@mizan/kernel"
import { Clock, Context, Effect, Exit, Layer, Stream } from "effect"
import { EventStore, type EventStoreShape } from "../EventStore.ts"
import {
  type AppendResult,
  damagedEventAt,
  type NewEvent,
  type RecordedEvent,
  StoreError,
  type StreamAppend,
} from "../events.ts"
import { unkeyedDigestHex } from "./cipher.ts"
import { forgetsRecordedOf, forgottenSubjectCodec, forgottenSubjectStream } from "./forgetRecord.ts"
import type { KeyRing } from "./KeyRing.ts"
import { type SealingPlan, subjectKindsOf } from "./plan.ts"
import { SubjectKeys } from "./SubjectKeys.ts"
import { makeSealer, type Sealer, type SealingOptions } from "./sealer.ts"

export interface ForgetOutcome {
  readonly subjectId: string
  /** How many data keys were destroyed: 0 when the subject was forgotten before, or never seen. */
  readonly keysDestroyed: number
  /**
   * When nothing was destroyed, the last forget recorded of the subject:
   * absent for a subject this store never held (a misspelt value, a
   * person it never saw), which a data-protection officer must not take
   * for one already forgotten.
   */
  readonly forgottenBefore?: { readonly at: number; readonly by: string }
}

/** The sealing behind a sealed store: keyed ids, and forgetting a subject. */
export class Sealing extends Context.Service<
  Sealing,
  {
    readonly subjectIdOf: (kind: string, value: string) => string
    /**
     * Destroys the data keys of `kind:value` and records who asked and when
     * as a `SubjectForgotten` event. `value` as the events hold it (a card
     * number's digest, a member's identity digest, a remitter's text) or in
     * clear (a card number, a payer's member id): a value that is not a
     * SHA-256 hex also names the subject keyed by its SHA-256, which is how
     * the edge digests a card number and how a subject named in clear is
     * keyed (SealedSubject.identifiedInClear). A second forget is a no-op
     * that records nothing.
     */
    readonly forget: (kind: string, value: string, by: string) => Effect.Effect<ForgetOutcome, StoreError>
    /**
     * Forgets the subject of `kind` that the events of `streamId` name by
     * no value of their own (SealedSubject.identifiedBy): an acquiring
     * order created without an eid keeps its payer's email and customer id
     * under the order's own payer subject.
     */
    readonly forgetOfStream: (kind: string, streamId: string, by: string) => Effect.Effect<ForgetOutcome, StoreError>
  }
>()("@mizan/eventsourcing/Sealing") {}

/**
 * A record with its sealed fields opened. One whose fields do not open
 * (Corrupt: its box altered, or naming a key the table does not hold) fails
 * naming the event as data (`damagedEvent`), as an adapter names a row whose
 * JSON does not parse, so that a reader may report it and read on.
 */
const opened = (sealer: Sealer, record: RecordedEvent, streamId: string) =>
  Effect.mapBoth(sealer.open(record.streamId, record.id, record.data), {
    onFailure: (error) =>
      error.reason === "Corrupt" && error.damagedEvent === undefined
        ? new StoreError({
            reason: error.reason,
            detail: error.detail,
            damagedEvent: damagedEventAt({ ...record, streamId }, error.detail),
          })
        : error,
    onSuccess: (data) =>
      data === record.data && streamId === record.streamId ? record : { ...record, streamId, data },
  })

/**
 * Each record opened, but those of the streams `wholeEventsOf` refuses: they
 * come as their place alone, with no data to open. The keys the page names
 * and the sealer has not cached are loaded first, in one lookup (a replay
 * of a store with a card per event would otherwise ask the key table once
 * an event). A page that is not empty stays so in its type (a follower's page).
 */
const openedPage = <Page extends ReadonlyArray<RecordedEvent>>(
  sealer: Sealer,
  records: Page,
  wholeEventsOf?: (streamId: string) => boolean,
  streamId?: string,
) => {
  // `wholeEventsOf` is the caller's and may cost (a hash of the stream id): asked once a record, its answers serve
  // both the keys to load and the records to open.
  const refused = wholeEventsOf === undefined ? undefined : records.map((record) => !wholeEventsOf(record.streamId))
  const toOpen = (index: number) => refused?.[index] !== true
  return Effect.andThen(
    sealer.loadKeysOf(records.flatMap((record, index) => (toOpen(index) ? [record.data] : []))),
    Effect.forEach(records, (record: RecordedEvent, index) =>
      toOpen(index) ? opened(sealer, record, streamId ?? record.streamId) : Effect.succeed(record),
    ),
  )
}

const withData = (event: NewEvent, data: unknown): NewEvent => (data === event.data ? event : { ...event, data })

/**
 * The events sealed, when every seal has finished already: with its keys
 * cached the sealer answers an Exit (an Effect already run), taken as it is,
 * with no effect per event. `undefined` when one seal still has work to do.
 */
const sealedAtOnce = (
  events: ReadonlyArray<NewEvent>,
  sealing: ReadonlyArray<Effect.Effect<unknown, StoreError>>,
): ReadonlyArray<NewEvent> | undefined => {
  const sealed: Array<NewEvent> = []
  for (let i = 0; i < events.length; i++) {
    const each = sealing[i]
    if (!Exit.isExit(each) || !Exit.isSuccess(each)) return undefined
    sealed.push(withData(events[i]!, each.value))
  }
  return sealed
}

/** `store` with sealing: what a caller appends and reads is clear; what the adapter holds is sealed. */
export const sealedEventStore = (store: EventStoreShape, sealer: Sealer): EventStoreShape => {
  /** Whether a part goes to the adapter as it is: nothing personal in its events or its stream id. */
  const isClear = (part: StreamAppend) =>
    sealer.storedStreamId(part.streamId) === part.streamId && !part.events.some((event) => sealer.seals(event.type))
  /**
   * A part as the adapter stores it: its stream id and events sealed. Run
   * when the append runs, not when it is built: a run again (a retry) seals
   * afresh, with new nonces and the key cache as it is then. The part
   * itself when every seal finished at once (its keys cached), so that the
   * append takes no step of its own for it; else the effect that seals it.
   */
  const sealedPart = (part: StreamAppend): StreamAppend | Effect.Effect<StreamAppend, StoreError> => {
    const streamId = sealer.storedStreamId(part.streamId)
    const sealing = part.events.map((event) => sealer.seal(streamId, event.type, event.data))
    const sealed = sealedAtOnce(part.events, sealing)
    if (sealed !== undefined) return { ...part, streamId, events: sealed }
    return Effect.map(
      Effect.forEach(part.events, (event, i) => Effect.map(sealing[i]!, (data) => withData(event, data))),
      (events) => ({ ...part, streamId, events }),
    )
  }
  /** The caller gets back what it appended, in clear, under the id it used. */
  const inClear = (part: StreamAppend, result: AppendResult): AppendResult => ({
    ...result,
    records: result.records.map((record, i) => ({ ...record, streamId: part.streamId, data: part.events[i]?.data })),
  })
  return {
    ...store,
    // A part with nothing personal in it goes through as it is, with no copies and no step of its own.
    append: (streamId, events, expected) => {
      const part = { streamId, events, expected }
      if (isClear(part)) return store.append(streamId, events, expected)
      const appendSealed = (sealed: StreamAppend) =>
        Effect.map(store.append(sealed.streamId, sealed.events, expected), (result) => inClear(part, result))
      return Effect.suspend(() => {
        const sealed = sealedPart(part)
        return Effect.isEffect(sealed) ? Effect.flatMap(sealed, appendSealed) : appendSealed(sealed)
      })
    },
    appendMany: (parts) => {
      const clear = parts.map(isClear)
      if (clear.every(Boolean)) return store.appendMany(parts)
      const appendStored = (stored: ReadonlyArray<StreamAppend>) =>
        Effect.map(store.appendMany(stored), (results) =>
          results.map((result, i) => (clear[i] ? result : inClear(parts[i]!, result))),
        )
      return Effect.suspend(() => {
        const stored = parts.map((part, i) => (clear[i] ? part : sealedPart(part)))
        return stored.some(Effect.isEffect)
          ? Effect.flatMap(
              Effect.forEach(stored, (part) => (Effect.isEffect(part) ? part : Effect.succeed(part))),
              appendStored,
            )
          : appendStored(stored as ReadonlyArray<StreamAppend>)
      })
    },
    readStream: (streamId, options) =>
      Effect.flatMap(store.readStream(sealer.storedStreamId(streamId), options), (records) =>
        openedPage(sealer, records, undefined, streamId),
      ),
    readAll: (options) =>
      Effect.flatMap(store.readAll(options), (records) => openedPage(sealer, records, options.wholeEventsOf)),
    // A page at a time: one effect per page a follower is woken for, not one per event.
    follow: (after, options) => Stream.mapArrayEffect(store.follow(after, options), (page) => openedPage(sealer, page)),
  }
}

/**
 * Why a forget of `kind`, asked by `by`, cannot be taken, if anything. A
 * kind the plan seals no field of (`kinds`) is refused: its forget would
 * find no key and answer "nothing changed", so that a misspelt kind would
 * read as a subject already forgotten.
 */
const refusedForget = (kind: string, by: string, kinds: ReadonlyArray<string>): StoreError | undefined => {
  if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(kind))
    return new StoreError({ reason: "InvalidRequest", detail: `subject kind "${kind}" is not a word` })
  if (!kinds.includes(kind))
    return new StoreError({
      reason: "InvalidRequest",
      detail: `subject kind "${kind}" has no sealed field: the kinds are ${kinds.join(", ")}`,
    })
  if (by.trim() === "") return new StoreError({ reason: "InvalidRequest", detail: "by: say who asks to forget" })
  return undefined
}

/** The last forget recorded of `subjectId`, if any. */
const lastForgetOf = (store: EventStoreShape, subjectId: string) =>
  Effect.map(forgetsRecordedOf(store, subjectId), (forgets) => forgets.at(-1))

/** Whether the last forget recorded of `subjectId` names `keyId`: a forget cut off before the key went. */
const forgetRecordedOf = (store: EventStoreShape, subjectId: string, keyId: string) =>
  Effect.map(lastForgetOf(store, subjectId), (last) => last !== undefined && last.keyId === keyId)

/** What a forget of `subjectId` that found no live key answers: whether, and when and by whom, it was forgotten. */
const nothingToForget = (store: EventStoreShape, subjectId: string): Effect.Effect<ForgetOutcome, StoreError> =>
  Effect.map(lastForgetOf(store, subjectId), (last) =>
    last === undefined
      ? { subjectId, keysDestroyed: 0 }
      : { subjectId, keysDestroyed: 0, forgottenBefore: { at: last.at, by: last.by } },
  )

/** Destroys the live key of `subjectId`, recording who asked first; a subject with none is left as it is. */
const forgetSubject =
  (store: EventStoreShape, keys: SubjectKeys["Service"], sealer: Sealer) =>
  (subjectId: string, by: string): Effect.Effect<ForgetOutcome, StoreError> => {
    const record = (keyId: string, at: number) =>
      store
        .append(
          forgottenSubjectStream(subjectId),
          // A subject has at most one live key (the key table's unique index): this one.
          [forgottenSubjectCodec.encode({ _tag: "SubjectForgotten", subjectId, by, at, keysDestroyed: 1, keyId })],
          "any",
        )
        .pipe(
          // "any" expects nothing of the stream, so a conflict cannot happen; were it to, it is the store's fault.
          Effect.catchTag("VersionConflict", (conflict) =>
            Effect.fail(new StoreError({ reason: "Unavailable", detail: conflict.message })),
          ),
        )
    const recordOnce = (keyId: string) =>
      Effect.flatMap(forgetRecordedOf(store, subjectId, keyId), (recorded) =>
        recorded ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (at) => record(keyId, at)),
      )
    return Effect.flatMap(keys.liveKeyOf(subjectId), (live) =>
      live === undefined
        ? nothingToForget(store, subjectId)
        : // Recorded before the key goes: a forget cut off between the two leaves its record and a live key, and
          // running it again finishes it without a second record. The other way round could destroy a key with no
          // record of who asked.
          recordOnce(live.keyId).pipe(
            Effect.andThen(sealer.forget(subjectId, by)),
            Effect.map((keysDestroyed) => ({ subjectId, keysDestroyed })),
          ),
    )
  }

/**
 * The subjects `kind:value` may name: the value as given, and, unless it is
 * a SHA-256 hex already, its SHA-256 (the digest's subject comes last, so
 * that it is the one an outcome names when neither holds a key). What a
 * forget destroys the keys of, and what an access request looks for.
 */
export const subjectValuesOf = (value: string): ReadonlyArray<string> =>
  isSha256Hex(value) ? [value] : [value, unkeyedDigestHex(value)]

/** Forgets every subject `kind:value` may name (subjectValuesOf); the outcome names the one whose key went, else one forgotten before. */
const forgetByValue =
  (store: EventStoreShape, keys: SubjectKeys["Service"], sealer: Sealer, kinds: ReadonlyArray<string>) =>
  (kind: string, value: string, by: string): Effect.Effect<ForgetOutcome, StoreError> => {
    const refused = refusedForget(kind, by, kinds)
    if (refused !== undefined) return Effect.fail(refused)
    return Effect.map(
      Effect.forEach(subjectValuesOf(value), (each) =>
        forgetSubject(store, keys, sealer)(sealer.subjectIdOf(kind, each), by),
      ),
      (outcomes) => {
        const named =
          outcomes.find((outcome) => outcome.keysDestroyed > 0) ??
          outcomes.find((outcome) => outcome.forgottenBefore !== undefined) ??
          outcomes.at(-1)!
        return { ...named, keysDestroyed: outcomes.reduce((sum, outcome) => sum + outcome.keysDestroyed, 0) }
      },
    )
  }

/**
 * Wraps the EventStore provided below it with sealing under `plan`, and
 * provides `Sealing`. Needs the key ring and the key table.
 */
export const layerSealedEventStore = (
  plan: SealingPlan,
  options: SealingOptions = {},
): Layer.Layer<EventStore | Sealing, StoreError, EventStore | KeyRing | SubjectKeys> =>
  Layer.effectContext(
    Effect.gen(function* () {
      const store = yield* EventStore
      const keys = yield* SubjectKeys
      const sealer = yield* makeSealer(plan, options)
      const kinds = subjectKindsOf(plan)
      return Context.make(EventStore, sealedEventStore(store, sealer)).pipe(
        Context.add(Sealing, {
          subjectIdOf: sealer.subjectIdOf,
          forget: forgetByValue(store, keys, sealer, kinds),
          forgetOfStream: (kind, streamId, by) => {
            const refused = refusedForget(kind, by, kinds)
            return refused !== undefined
              ? Effect.fail(refused)
              : forgetSubject(store, keys, sealer)(sealer.streamSubjectIdOf(kind, streamId), by)
          },
        }),
      )
    }),
  )
