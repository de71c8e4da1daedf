import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { forgotten } from "@mizan/kernel"
import { Cause, Effect, Exit, Layer } from "effect"
import {
  chainGenesis,
  chainHashOf,
  damagedEventAt,
  EventStore,
  type EventStoreShape,
  KeyRing,
  keyRingOfMasterKeys,
  layerSealedEventStore,
  logStart,
  makeMemoryEventStore,
  makeMemorySubjectKeys,
  makeSealerOn,
  mergeSealingPlans,
  newMasterKey,
  type RecordedEvent,
  Sealing,
  type SealingPlan,
  StoreError,
  SubjectKeys,
  type SubjectKeysShape,
} from "../src/index.ts"

const pan = "4111111111111111"
const panDigest = createHash("sha256").update(pan).digest("hex")
const phoneDigest = createHash("sha256").update("+971501234567").digest("hex")

const plan: SealingPlan = {
  events: {
    CardPaid: [
      { kind: "card", identifiedBy: "cardNumber", fields: ["cardNumber", "cardLast4", "expiryYear", "holderName"] },
    ],
    MemberOpened: [{ kind: "member", identifiedBy: "identity", fields: ["identity"] }],
  },
  streams: [{ category: "memberAccount" }],
}

const cardPaid = (orderNo: string) => ({
  type: "CardPaid",
  schemaVersion: 1,
  data: { orderNo, amount: 100, cardNumber: panDigest, cardLast4: "1111", expiryYear: "2030", holderName: "Amal" },
})

/** cardPaid's data once the card is forgotten: each of the card's fields [forgotten], the others kept. */
const forgottenCardPaid = (orderNo: string) => ({
  ...cardPaid(orderNo).data,
  cardNumber: forgotten,
  cardLast4: forgotten,
  expiryYear: forgotten,
  holderName: forgotten,
})

/** One sealed box of a stored event: the subject and key it is sealed under, and the fields it holds. */
interface SealedEntry {
  readonly subject: string
  key: string
  box: string
  fields: Array<string>
}

/** The sealed boxes of a stored event (none when nothing of it is sealed). */
const sealedEntriesOf = (data: unknown): Array<SealedEntry> =>
  (data as { $sealed?: Array<SealedEntry> } | undefined)?.$sealed ?? []

interface World {
  readonly raw: EventStoreShape
  readonly keys: SubjectKeysShape
  readonly keyRing: KeyRing["Service"]
}

const newWorld = (): World => ({
  raw: makeMemoryEventStore(),
  keys: makeMemorySubjectKeys(),
  keyRing: keyRingOfMasterKeys([newMasterKey()]),
})

/** A process on `world`'s store and key table: the sealed store and its Sealing, under `plan` (the card's by default). */
const sealedOn = <A, E>(
  world: World,
  body: Effect.Effect<A, E, EventStore | Sealing>,
  options: { readonly plan?: SealingPlan; readonly keyCacheMs?: number } = {},
) =>
  Effect.provide(
    body,
    layerSealedEventStore(options.plan ?? plan, { keyCacheMs: options.keyCacheMs ?? 30_000 }).pipe(
      Layer.provide(
        Layer.mergeAll(
          Layer.succeed(EventStore, world.raw),
          Layer.succeed(SubjectKeys, world.keys),
          Layer.succeed(KeyRing, world.keyRing),
        ),
      ),
    ),
  )

const rawLog = (world: World) => world.raw.readAll({ after: logStart, maxCount: 1_000 })

/**
 * The message of what `effect` failed with, its cause squashed as a promise of the effect would reject with it (a
 * typed error or a defect); a success fails the test.
 */
const failureMessageOf = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.flatMap(Effect.exit(effect), (exit) =>
    Exit.isFailure(exit)
      ? Effect.succeed(String((Cause.squash(exit.cause) as { message?: unknown }).message))
      : Effect.die(new Error("expected a failure, got a success")),
  )

const append = (
  streamId: string,
  event: ReturnType<typeof cardPaid> | { type: string; schemaVersion: number; data: unknown },
) => Effect.flatMap(EventStore, (store) => store.append(streamId, [event], "any"))

const readStream = (streamId: string) => Effect.flatMap(EventStore, (store) => store.readStream(streamId))

/** A new world whose log holds order/1, paid by the card. */
const worldWithCardPaid = Effect.suspend(() => {
  const world = newWorld()
  return Effect.as(sealedOn(world, append("order/1", cardPaid("1"))), world)
})

/** The card's forget, as the data protection officer asks it. */
const forgetTheCard = Effect.flatMap(Sealing, (sealing) => sealing.forget("card", panDigest, "dpo"))

/** The forgets recorded in the world's log. */
const forgetRecords = (world: World) =>
  Effect.map(rawLog(world), (log) => log.filter((record) => record.type === "SubjectForgotten"))

/**
 * The card's forget cut off in the copy of `world` that `cutOff` makes
 * (failing with `detail` while `down` answers true), then run again once it
 * is back: the card still opens in between, and the rerun destroys its key
 * with one forget recorded.
 */
const forgetCutOffThenRerun = (world: World, detail: string, cutOff: (down: () => boolean) => World) =>
  Effect.gen(function* () {
    let down = true
    const flaky = cutOff(() => down)
    expect(yield* sealedOn(flaky, Effect.flip(forgetTheCard))).toMatchObject({ _tag: "StoreError", detail })
    expect((yield* sealedOn(world, readStream("order/1")))[0]?.data).toEqual(cardPaid("1").data)
    down = false
    expect((yield* sealedOn(flaky, forgetTheCard)).keysDestroyed).toBe(1)
    expect(yield* forgetRecords(world)).toHaveLength(1)
    expect((yield* sealedOn(world, readStream("order/1")))[0]?.data).toMatchObject({ cardLast4: forgotten })
  })

/** A store or key table that cannot answer, saying why. */
const unavailable = (detail: string) => Effect.fail(new StoreError({ reason: "Unavailable", detail }))

/**
 * `body` on the sealed store once the card's key is made and cached (order/0
 * paid by the card), so that a card's append is sealed at once, on the fast path.
 */
const withTheCardKeyCached = <A, E, R>(body: (store: EventStoreShape) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    yield* store.append("order/0", [cardPaid("0")], "any")
    return yield* body(store)
  })

/**
 * The world's first stored event copied onto `streamId` behind the sealed
 * store's back, its stored data changed by `alter` first (unchanged by
 * default), and read there through the sealed store under `underPlan` (the
 * card's by default): the copy's id and the message the read fails with.
 */
const readOfStoredCopy = (
  world: World,
  streamId: string,
  alter: (data: { $sealed: Array<SealedEntry> }) => void = () => {},
  underPlan = plan,
) =>
  Effect.gen(function* () {
    const [record] = yield* rawLog(world)
    const data = structuredClone(record?.data) as { $sealed: Array<SealedEntry> }
    alter(data)
    yield* world.raw.append(streamId, [{ type: record?.type ?? "", schemaVersion: 1, data }], "any")
    const copy = (yield* rawLog(world)).at(-1) as RecordedEvent
    const message = yield* failureMessageOf(sealedOn(world, readStream(streamId), { plan: underPlan }))
    return { copyId: copy.id, message }
  })

describe("the sealed store", () => {
  it.effect(
    "stores a card's fields sealed, neither the clear values nor the number's unkeyed digest, and reads them back",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const read = yield* sealedOn(world, Effect.andThen(append("order/1", cardPaid("1")), readStream("order/1")))
        expect(read[0]?.data).toEqual(cardPaid("1").data)
        const stored = JSON.stringify((yield* rawLog(world)).map((r) => r.data))
        for (const clear of [pan, panDigest, "1111", "2030", "Amal"]) expect(stored).not.toContain(clear)
        expect(stored).toContain('"amount":100')
      }),
  )

  it.effect(
    "seals one subject's fields with one cipher, bound to the stream: moved to another stream it does not open",
    () =>
      Effect.gen(function* () {
        const world = yield* worldWithCardPaid
        const [record] = yield* rawLog(world)
        const sealed = sealedEntriesOf(record?.data)
        expect(sealed).toHaveLength(1)
        expect(sealed[0]?.fields).toEqual(["cardNumber", "cardLast4", "expiryYear", "holderName"])
        const moved = yield* readOfStoredCopy(world, "order/2")
        expect(moved.message).toMatch(/do not open/)
      }),
  )

  it.effect(
    "names an event whose sealed fields do not open by its place, as data, for a reader to report and pass",
    () =>
      Effect.gen(function* () {
        const world = yield* worldWithCardPaid
        const [record] = yield* rawLog(world)
        yield* world.raw.append("order/2", [{ type: record!.type, schemaVersion: 1, data: record!.data }], "any")
        const copy = (yield* rawLog(world)).at(-1) as RecordedEvent
        const readAll = Effect.flatMap(EventStore, (store) => store.readAll({ after: logStart, maxCount: 10 }))
        const failure = yield* Effect.flip(sealedOn(world, readAll))
        expect(failure).toMatchObject({ _tag: "StoreError", reason: "Corrupt" })
        expect(failure.damagedEvent).toEqual(damagedEventAt(copy, failure.detail))
        expect(failure.damagedEvent?.why).toMatch(/do not open/)
      }),
  )

  it.effect("seals an append when it runs, not when it is built: run twice, it stores two boxes that both open", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const read = yield* sealedOn(
        world,
        withTheCardKeyCached((store) =>
          Effect.gen(function* () {
            const twice = store.append("order/1", [cardPaid("1")], "any")
            yield* twice
            yield* twice
            return yield* store.readStream("order/1")
          }),
        ),
      )
      expect(read.map((record) => record.data)).toEqual([cardPaid("1").data, cardPaid("1").data])
      const boxes = (yield* world.raw.readStream("order/1")).map((record) => sealedEntriesOf(record.data)[0]?.box)
      expect(new Set(boxes).size).toBe(2)
    }),
  )

  it.effect(
    "answers a seal with its key cached as a finished Exit, which the sealed store takes without running it",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const sealer = yield* makeSealerOn(plan, world.keys, world.keyRing)
        const first = sealer.seal("order/1", "CardPaid", cardPaid("1").data)
        expect(Exit.isExit(first)).toBe(false)
        yield* first
        const cached = sealer.seal("order/2", "CardPaid", cardPaid("2").data)
        expect(Exit.isExit(cached) && Exit.isSuccess(cached)).toBe(true)
      }),
  )

  it.effect("seals an append built before a forget under a new key when it runs after it, and it reads back", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const keyIdsOf = (streamId: string) =>
        Effect.map(world.raw.readStream(streamId), (records) =>
          records.map((record) => sealedEntriesOf(record.data)[0]?.key),
        )
      const read = yield* sealedOn(
        world,
        // The card's key cached, so that the append below would be sealed at once if it were sealed when built.
        withTheCardKeyCached((store) =>
          Effect.gen(function* () {
            const built = store.append("order/1", [cardPaid("1")], "any")
            yield* forgetTheCard
            yield* built
            return yield* store.readStream("order/1")
          }),
        ),
      )
      expect(read[0]?.data).toEqual(cardPaid("1").data)
      const [forgottenKey] = yield* keyIdsOf("order/0")
      const [newKey] = yield* keyIdsOf("order/1")
      expect(newKey).toBeDefined()
      expect(newKey).not.toBe(forgottenKey)
    }),
  )

  it.effect("refuses to open an altered sealed value, naming the event", () =>
    Effect.gen(function* () {
      const world = yield* worldWithCardPaid
      const altered = yield* readOfStoredCopy(world, "order/9", (data) => {
        const box = Buffer.from(data.$sealed[0]!.box, "base64")
        box[20] = (box[20] ?? 0) ^ 1
        data.$sealed[0]!.box = box.toString("base64")
      })
      expect(altered.message).toContain(altered.copyId)
    }),
  )

  it.effect("keys a stream id that holds a personal value, and finds the stream by its clear id", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const streamId = `memberAccount/${phoneDigest}`
      const read = yield* sealedOn(
        world,
        Effect.andThen(
          append(streamId, { type: "MemberOpened", schemaVersion: 1, data: { identity: phoneDigest } }),
          readStream(streamId),
        ),
      )
      expect(read[0]?.streamId).toBe(streamId)
      expect(read[0]?.data).toEqual({ identity: phoneDigest })
      const [record] = yield* rawLog(world)
      expect(record?.streamId).toMatch(/^memberAccount\/keyed:[0-9a-f]{64}$/)
      expect(JSON.stringify([record?.streamId, record?.data])).not.toContain(phoneDigest)
    }),
  )

  it.effect(
    "reads a forgotten card's fields as [forgotten], keeps every other field, and leaves the stored chain whole",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const outcome = yield* sealedOn(
          world,
          Effect.gen(function* () {
            yield* append("order/1", cardPaid("1"))
            yield* append("order/2", { ...cardPaid("2"), data: { ...cardPaid("2").data, cardNumber: "f".repeat(64) } })
            return yield* Effect.flatMap(Sealing, (sealing) => sealing.forget("card", panDigest, "dpo@example.ae"))
          }),
        )
        expect(outcome.keysDestroyed).toBe(1)
        const [first, second] = yield* sealedOn(world, Effect.all([readStream("order/1"), readStream("order/2")]))
        expect(first?.[0]?.data).toEqual(forgottenCardPaid("1"))
        expect(second?.[0]?.data).toMatchObject({ cardNumber: "f".repeat(64), holderName: "Amal" })
        const log = yield* rawLog(world)
        const previous = new Map<string, string>()
        for (const record of log) {
          expect(record.chainHash).toBe(chainHashOf(previous.get(record.streamId) ?? chainGenesis, record))
          previous.set(record.streamId, record.chainHash ?? "")
        }
      }),
  )

  it.effect(
    "refuses a forget of a kind the plan seals no field of: a misspelt kind would read as already forgotten",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const [byValue, ofStream] = yield* sealedOn(
          world,
          Effect.gen(function* () {
            yield* append("order/1", cardPaid("1"))
            const sealing = yield* Sealing
            return [
              yield* Effect.flip(sealing.forget("crad", panDigest, "dpo")),
              yield* Effect.flip(sealing.forgetOfStream("crad", "order/1", "dpo")),
            ]
          }),
        )
        for (const refusal of [byValue, ofStream]) {
          expect(refusal?.reason).toBe("InvalidRequest")
          expect(refusal?.message).toContain('subject kind "crad" has no sealed field')
          expect(refusal?.message).toContain("card")
        }
        expect(yield* forgetRecords(world)).toHaveLength(0)
      }),
  )

  it.effect("records a forget as who and when, never what, and a second forget is a no-op", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const [first, second] = yield* sealedOn(
        world,
        Effect.gen(function* () {
          yield* append("order/1", cardPaid("1"))
          const sealing = yield* Sealing
          return [yield* sealing.forget("card", panDigest, "dpo"), yield* sealing.forget("card", panDigest, "dpo")]
        }),
      )
      expect(first?.keysDestroyed).toBe(1)
      const forgets = yield* forgetRecords(world)
      expect(forgets).toHaveLength(1)
      expect(forgets[0]?.data).toMatchObject({ subjectId: first?.subjectId, by: "dpo", keysDestroyed: 1 })
      expect(JSON.stringify(forgets.map((r) => [r.streamId, r.data]))).not.toContain(panDigest)
      // The second answers when and by whom the subject was forgotten, which tells it from one never seen.
      expect(second).toEqual({
        subjectId: first?.subjectId,
        keysDestroyed: 0,
        forgottenBefore: { at: (forgets[0]!.data as { at: number }).at, by: "dpo" },
      })
    }),
  )

  it.effect("answers a subject it never held as nothing forgotten before, by value and by stream alike", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const outcomes = yield* sealedOn(
        world,
        Effect.gen(function* () {
          yield* append("order/1", cardPaid("1"))
          const sealing = yield* Sealing
          return [
            yield* sealing.forget("card", "4111-1111-1111-1111", "dpo"),
            yield* sealing.forgetOfStream("card", "order/1", "dpo"),
          ]
        }),
      )
      for (const outcome of outcomes) {
        expect(outcome.keysDestroyed).toBe(0)
        expect(outcome.forgottenBefore).toBeUndefined()
      }
      expect(yield* forgetRecords(world)).toHaveLength(0)
    }),
  )

  it.effect("forgets a card given by its clear number, whose digest the events hold", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const [outcome, digestSubject, read] = yield* sealedOn(
        world,
        Effect.gen(function* () {
          yield* append("order/1", cardPaid("1"))
          const sealing = yield* Sealing
          return [
            yield* sealing.forget("card", pan, "dpo"),
            sealing.subjectIdOf("card", panDigest),
            yield* readStream("order/1"),
          ] as const
        }),
      )
      expect(outcome).toEqual({ subjectId: digestSubject, keysDestroyed: 1 })
      expect(read[0]?.data).toMatchObject({ cardNumber: forgotten })
    }),
  )

  it.effect("seals a forgotten card's new payments under a new key, which still opens", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const read = yield* sealedOn(
        world,
        Effect.gen(function* () {
          yield* append("order/1", cardPaid("1"))
          yield* forgetTheCard
          yield* append("order/2", cardPaid("2"))
          return yield* Effect.all([readStream("order/1"), readStream("order/2")])
        }),
      )
      expect(read[0]?.[0]?.data).toMatchObject({ cardNumber: forgotten })
      expect(read[1]?.[0]?.data).toEqual(cardPaid("2").data)
    }),
  )

  it.effect(
    "stores a [forgotten] field as it is: there is nothing left to seal (an import of a forgotten subject)",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const data = forgottenCardPaid("1")
        yield* sealedOn(world, append("order/1", { type: "CardPaid", schemaVersion: 1, data }))
        expect((yield* rawLog(world))[0]?.data).toEqual(data)
      }),
  )

  it.effect("lets another process notice a forget once its cached key expires, and not before", () =>
    Effect.gen(function* () {
      /** Reads the order (caching its key), has another process forget the card, and reads it again. */
      const readAroundForget = (keyCacheMs: number) =>
        Effect.gen(function* () {
          const world = yield* worldWithCardPaid
          return yield* sealedOn(
            world,
            Effect.gen(function* () {
              yield* readStream("order/1")
              const subjectId = (yield* Sealing).subjectIdOf("card", panDigest)
              yield* world.keys.forget(subjectId, 0, "dpo")
              return yield* readStream("order/1")
            }),
            { keyCacheMs },
          )
        })
      expect((yield* readAroundForget(30_000))[0]?.data).toEqual(cardPaid("1").data)
      expect((yield* readAroundForget(0))[0]?.data).toMatchObject({ cardLast4: forgotten })
    }),
  )

  it.effect(
    "records a forget before it destroys the key: one whose record cannot be written destroys nothing, and running it again finishes it",
    () =>
      Effect.gen(function* () {
        const world = yield* worldWithCardPaid
        yield* forgetCutOffThenRerun(world, "disk full", (diskFull) => ({
          ...world,
          raw: {
            ...world.raw,
            append: (streamId, events, expected) =>
              diskFull() && events[0]?.type === "SubjectForgotten"
                ? unavailable("disk full")
                : world.raw.append(streamId, events, expected),
          },
        }))
      }),
  )

  it.effect(
    "finishes a forget cut off after its record without a second record, and records the next key's forget anew",
    () =>
      Effect.gen(function* () {
        const world = yield* worldWithCardPaid
        yield* forgetCutOffThenRerun(world, "key table down", (keyTableDown) => ({
          ...world,
          keys: {
            ...world.keys,
            forget: (subjectId, at, by) =>
              keyTableDown() ? unavailable("key table down") : world.keys.forget(subjectId, at, by),
          },
        }))
        // The card comes back, under a new key: forgetting it again is a new forget, recorded.
        yield* sealedOn(world, append("order/2", cardPaid("2")))
        expect((yield* sealedOn(world, forgetTheCard)).keysDestroyed).toBe(1)
        const afterSecond = yield* forgetRecords(world)
        expect(afterSecond).toHaveLength(2)
        const [firstKey, secondKey] = afterSecond.map((r) => (r.data as { keyId?: string }).keyId)
        expect(firstKey).toEqual(expect.any(String))
        expect(secondKey).toEqual(expect.any(String))
        expect(secondKey).not.toBe(firstKey)
      }),
  )

  it.effect("gives every process on one key table the same keyed ids", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const ids = yield* Effect.all(
        [1, 2].map(() =>
          sealedOn(
            world,
            Effect.map(Sealing, (s) => s.subjectIdOf("card", panDigest)),
          ),
        ),
        { concurrency: "unbounded" },
      )
      expect(ids[0]).toBe(ids[1])
      expect(ids[0]).toMatch(/^card:[0-9a-f]{64}$/)
      expect(ids[0]).not.toContain(panDigest)
    }),
  )

  it.effect("loads the keys a page names and has not cached in one lookup, and none again while they are cached", () =>
    Effect.gen(function* () {
      const world = newWorld()
      yield* sealedOn(
        world,
        Effect.forEach(["1", "2", "3"], (n) =>
          append(`order/${n}`, {
            ...cardPaid(n),
            data: { ...cardPaid(n).data, cardNumber: createHash("sha256").update(`card ${n}`).digest("hex") },
          }),
        ),
      )
      const lookups: Array<ReadonlyArray<string>> = []
      const counted: World = {
        ...world,
        keys: {
          ...world.keys,
          keyById: (keyId) =>
            Effect.andThen(
              Effect.sync(() => lookups.push([keyId])),
              world.keys.keyById(keyId),
            ),
          keysById: (keyIds) =>
            Effect.andThen(
              Effect.sync(() => lookups.push(keyIds)),
              world.keys.keysById(keyIds),
            ),
        },
      }
      const readAll = Effect.flatMap(EventStore, (store) => store.readAll({ after: logStart, maxCount: 10 }))
      const [first, second] = yield* sealedOn(counted, Effect.all([readAll, readAll]))
      expect(first.map((record) => record.data)).toEqual(
        ["1", "2", "3"].map((n) => expect.objectContaining({ orderNo: n, cardLast4: "1111", holderName: "Amal" })),
      )
      expect(second).toEqual(first)
      const keyIds = (yield* rawLog(world)).map((record) => sealedEntriesOf(record.data)[0]?.key)
      expect(new Set(keyIds).size).toBe(3)
      expect(lookups.map((ids) => new Set(ids))).toEqual([new Set(keyIds)])
    }),
  )

  it.effect("asks a read's wholeEventsOf once a record, and opens only the records of the streams it accepts", () =>
    Effect.gen(function* () {
      const world = newWorld()
      yield* sealedOn(
        world,
        Effect.forEach(["1", "2", "3"], (n) => append(`order/${n}`, cardPaid(n))),
      )
      // The store below answers every record whole, so every ask counted is the sealed store's own.
      const everyRecordWhole: World = {
        ...world,
        raw: { ...world.raw, readAll: ({ after, maxCount }) => world.raw.readAll({ after, maxCount }) },
      }
      const asked: Array<string> = []
      const wholeEventsOf = (streamId: string) => {
        asked.push(streamId)
        return streamId !== "order/2"
      }
      const page = yield* sealedOn(
        everyRecordWhole,
        Effect.flatMap(EventStore, (store) => store.readAll({ after: logStart, maxCount: 10, wholeEventsOf })),
      )
      expect(asked).toEqual(["order/1", "order/2", "order/3"])
      expect(page.map((record) => record.data)).toEqual([
        cardPaid("1").data,
        expect.objectContaining({ $sealed: expect.any(Array) }),
        cardPaid("3").data,
      ])
    }),
  )

  it.effect(
    "refuses to open an event sealed under a key the key table does not hold, naming the event and the key",
    () =>
      Effect.gen(function* () {
        const world = yield* worldWithCardPaid
        const moved = yield* readOfStoredCopy(world, "order/9", (data) => {
          data.$sealed[0]!.key = "a-key-no-one-made"
        })
        expect(moved.message).toContain(moved.copyId)
        expect(moved.message).toContain("a-key-no-one-made")
      }),
  )

  it.effect("cannot open a store's keys under another key file", () =>
    Effect.gen(function* () {
      const world = yield* worldWithCardPaid
      const stranger = { ...world, keyRing: keyRingOfMasterKeys([newMasterKey()]) }
      expect(yield* failureMessageOf(sealedOn(stranger, readStream("order/1")))).toMatch(/not in the key ring/)
    }),
  )

  it.effect(
    "says a key file holding another key under the store's master key id may be the cause, not only an alteration",
    () =>
      Effect.gen(function* () {
        const world = yield* worldWithCardPaid
        const id = yield* world.keyRing.currentMasterKeyId
        const impostor = { ...world, keyRing: keyRingOfMasterKeys([{ ...newMasterKey(), id }]) }
        expect(yield* failureMessageOf(sealedOn(impostor, readStream("order/1")))).toContain(
          `a data key wrapped by ${id} does not unwrap: the master key file holds another key under that id, or the wrapped key was altered`,
        )
      }),
  )
})

describe("sealing plans", () => {
  it("merge, and refuse an event type two libs both declare", () => {
    const merged = mergeSealingPlans(plan, { events: { Other: [] }, streams: [] })
    expect(Object.keys(merged.events)).toEqual(["CardPaid", "MemberOpened", "Other"])
    expect(() => mergeSealingPlans(plan, { events: { CardPaid: [] }, streams: [] })).toThrow(
      /CardPaid is declared twice/,
    )
  })
})

describe("nested fields", () => {
  const notificationPlan: SealingPlan = {
    events: {
      NotificationScheduled: [
        {
          kind: "card",
          identifiedBy: "order.cardNumber",
          fields: ["order.cardNumber", "order.firstName"],
          onlyWhenIdentified: true,
        },
        {
          kind: "member",
          identifiedBy: "order.beneficiaryIdentity",
          fields: ["order.beneficiaryIdentity"],
          onlyWhenIdentified: true,
        },
      ],
    },
    streams: [],
  }
  const scheduled = (order: Record<string, unknown>) => ({
    type: "NotificationScheduled",
    schemaVersion: 1,
    data: { notifyId: "n1", order },
  })

  it.effect(
    "seal a field inside an object by its dotted path, for the subject the event identifies, and leave its siblings",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const order = { orderNo: "1", cardNumber: panDigest, firstName: "Amal", amount: 5 }
        const sealedWorld = <A, E>(body: Effect.Effect<A, E, EventStore | Sealing>) =>
          sealedOn(world, body, { plan: notificationPlan })
        const read = yield* sealedWorld(
          Effect.andThen(
            Effect.all([
              append("notification/1", scheduled(order)),
              append("notification/2", scheduled({ orderNo: "2", amount: 7 })),
            ]),
            Effect.all([readStream("notification/1"), readStream("notification/2")]),
          ),
        )
        expect(read[0]?.[0]?.data).toEqual({ notifyId: "n1", order })
        expect(read[1]?.[0]?.data).toEqual({ notifyId: "n1", order: { orderNo: "2", amount: 7 } })
        const [first, second] = yield* rawLog(world)
        expect(first?.data).toMatchObject({ notifyId: "n1", order: { orderNo: "1", amount: 5 } })
        expect(JSON.stringify(first?.data)).not.toContain(panDigest)
        expect(sealedEntriesOf(first?.data).map((e) => e.subject.split(":")[0])).toEqual(["card"])
        expect(second?.data).toEqual({ notifyId: "n1", order: { orderNo: "2", amount: 7 } })
        const forgottenRead = yield* sealedWorld(Effect.andThen(forgetTheCard, readStream("notification/1")))
        expect(forgottenRead[0]?.data).toEqual({
          notifyId: "n1",
          order: { orderNo: "1", cardNumber: forgotten, firstName: forgotten, amount: 5 },
        })
      }),
  )
})

describe("fields of a list's items", () => {
  const otherDigest = createHash("sha256").update("+971509999999").digest("hex")
  const eidDigest = createHash("sha256").update("784-1990-1234567-1").digest("hex")
  const listPlan: SealingPlan = {
    events: {
      OrderCreated: [
        { kind: "payer", identifiedBy: "request.eid", fields: ["request.eid"] },
        {
          kind: "member",
          identifiedBy: "request.sharing[].identity",
          fields: ["request.sharing[].identity", "request.sharing[].name"],
        },
      ],
    },
    streams: [],
  }
  const item = (identity: string, seq: number) => ({ seq, identity, name: `member ${seq}`, amount: seq * 10 })
  const created = (sharing: ReadonlyArray<ReturnType<typeof item>> | undefined) => ({
    type: "OrderCreated",
    schemaVersion: 1,
    data: { orderNo: "1", request: { eid: eidDigest, ...(sharing === undefined ? {} : { sharing }) } },
  })
  const sealedWith = <A, E>(world: World, body: Effect.Effect<A, E, EventStore | Sealing>, forPlan = listPlan) =>
    sealedOn(world, body, { plan: forPlan })
  /** Three items, the first and the third of the same member. */
  const sharing = [item(phoneDigest, 1), item(otherDigest, 2), item(phoneDigest, 3)]
  type Stored = { $sealed: ReadonlyArray<{ subject: string; fields: ReadonlyArray<string> }>; request: unknown }

  it.effect(
    "seal each item's fields under the item's own subject, one cipher per subject, and read the list back whole",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const read = yield* sealedWith(
          world,
          Effect.andThen(append("order/1", created(sharing)), readStream("order/1")),
        )
        expect(read[0]?.data).toEqual(created(sharing).data)
        const [record] = yield* rawLog(world)
        const stored = record?.data as Stored
        const text = JSON.stringify(stored)
        for (const clear of [phoneDigest, otherDigest, eidDigest, "member 1", "member 2"])
          expect(text).not.toContain(clear)
        // The item's other fields stay, in place: the list keeps its length and order.
        expect(stored.request).toEqual({
          sharing: [
            { seq: 1, amount: 10 },
            { seq: 2, amount: 20 },
            { seq: 3, amount: 30 },
          ],
        })
        // The member named twice (items 0 and 2) has one entry; the payer and the other member one each.
        expect(stored.$sealed.map((e) => e.fields)).toEqual([
          ["request.eid"],
          [
            "request.sharing[0].identity",
            "request.sharing[0].name",
            "request.sharing[2].identity",
            "request.sharing[2].name",
          ],
          ["request.sharing[1].identity", "request.sharing[1].name"],
        ])
        expect(new Set(stored.$sealed.map((e) => e.subject)).size).toBe(3)
      }),
  )

  it.effect(
    "read a forgotten member's items as [forgotten], each of them, and leave the other members and the payer",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const read = yield* sealedWith(
          world,
          Effect.gen(function* () {
            yield* append("order/1", created(sharing))
            const outcome = yield* Effect.flatMap(Sealing, (sealing) => sealing.forget("member", phoneDigest, "dpo"))
            expect(outcome.keysDestroyed).toBe(1)
            return yield* readStream("order/1")
          }),
        )
        const gone = (seq: number) => ({ seq, identity: forgotten, name: forgotten, amount: seq * 10 })
        expect(read[0]?.data).toEqual({
          orderNo: "1",
          request: { eid: eidDigest, sharing: [gone(1), item(otherDigest, 2), gone(3)] },
        })
      }),
  )

  it.effect("seal nothing of a list that is absent or empty, and store an item's [forgotten] field as it is", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const imported = [{ ...item(phoneDigest, 1), identity: forgotten, name: forgotten }, item(otherDigest, 2)]
      const read = yield* sealedWith(
        world,
        Effect.andThen(
          Effect.all([
            append("order/1", created(undefined)),
            append("order/2", created([])),
            append("order/3", created(imported)),
          ]),
          Effect.all([readStream("order/1"), readStream("order/2"), readStream("order/3")]),
        ),
      )
      expect(read.map((events) => events[0]?.data)).toEqual([
        created(undefined).data,
        created([]).data,
        created(imported).data,
      ])
      const stored = (yield* rawLog(world)).map((r) => r.data as Stored)
      expect(stored.map((data) => data.$sealed.map((e) => e.fields))).toEqual([
        [["request.eid"]],
        [["request.eid"]],
        [["request.eid"], ["request.sharing[1].identity", "request.sharing[1].name"]],
      ])
      expect(stored[2]?.request).toEqual({
        sharing: [
          { seq: 1, identity: forgotten, name: forgotten, amount: 10 },
          { seq: 2, amount: 20 },
        ],
      })
    }),
  )

  it.effect("bind each item's fields to their place: an entry moved onto another item does not open", () =>
    Effect.gen(function* () {
      const world = newWorld()
      yield* sealedWith(world, append("order/1", created([item(phoneDigest, 1), item(otherDigest, 2)])))
      const moved = yield* readOfStoredCopy(
        world,
        "order/1",
        (data) => {
          const second = data.$sealed[2]!
          second.fields = second.fields.map((field) => field.replace("[1]", "[0]"))
        },
        listPlan,
      )
      expect(moved.message).toMatch(/do not open/)
    }),
  )

  it.effect(
    "refuse a plan whose list subject names a field outside its items, naming the event type and the field",
    () =>
      Effect.gen(function* () {
        const outside: SealingPlan = {
          events: {
            OrderCreated: [
              {
                kind: "member",
                identifiedBy: "request.sharing[].identity",
                fields: ["request.sharing[].identity", "request.eid"],
              },
            ],
          },
          streams: [],
        }
        expect(yield* failureMessageOf(sealedWith(newWorld(), readStream("order/1"), outside))).toMatch(
          /sealing plan of OrderCreated: request\.eid is not in the items of request\.sharing\[\]/,
        )
      }),
  )
})

describe("subjects named in clear, or by no value at all", () => {
  const payerPlan: SealingPlan = {
    events: {
      OrderCreated: [{ kind: "payer", identifiedBy: "eid", fields: ["eid", "email"] }],
      OrderPaid: [{ kind: "payer", identifiedBy: "payerMid", identifiedInClear: true, fields: ["payerMid", "ip"] }],
      NotificationScheduled: [
        {
          kind: "payer",
          identifiedBy: "order.eid",
          fields: ["order.eid", "order.email"],
          otherwiseStreamAt: "orderingKey",
        },
      ],
    },
    streams: [],
  }
  const event = (type: string, data: Record<string, unknown>) => ({ type, schemaVersion: 1, data })
  const subjectsOf = (record: RecordedEvent | undefined) => sealedEntriesOf(record?.data).map((e) => e.subject)
  const onPayers = <A, E>(world: World, body: Effect.Effect<A, E, EventStore | Sealing>) =>
    sealedOn(world, body, { plan: payerPlan })

  it.effect(
    "keys a member id held in clear by its SHA-256 hex, so forget payer:VALUE finds it given in clear or as the digest",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const midDigest = createHash("sha256").update("PAYER-7").digest("hex")
        const [subject, read] = yield* onPayers(
          world,
          Effect.gen(function* () {
            yield* append("order/1", event("OrderPaid", { payerMid: "PAYER-7", ip: "192.0.2.7", amount: 5 }))
            const subject = (yield* Sealing).subjectIdOf("payer", midDigest)
            yield* Effect.flatMap(Sealing, (sealing) => sealing.forget("payer", midDigest, "dpo"))
            return [subject, yield* readStream("order/1")] as const
          }),
        )
        const [record] = yield* rawLog(world)
        expect(subjectsOf(record)).toEqual([subject])
        expect(JSON.stringify(record?.data)).not.toMatch(/PAYER-7|192\.0\.2\.7/)
        expect(read[0]?.data).toEqual({ payerMid: forgotten, ip: forgotten, amount: 5 })
      }),
  )

  it.effect("forgets a member id held in clear when the library is given it in clear, as the events hold it", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const [outcome, again, read] = yield* onPayers(
        world,
        Effect.gen(function* () {
          yield* append("order/1", event("OrderPaid", { payerMid: "PAYER-7", ip: "192.0.2.7", amount: 5 }))
          const sealing = yield* Sealing
          const midDigest = createHash("sha256").update("PAYER-7").digest("hex")
          return [
            yield* sealing.forget("payer", "PAYER-7", "dpo"),
            yield* sealing.forget("payer", midDigest, "dpo"),
            yield* readStream("order/1"),
          ] as const
        }),
      )
      expect(outcome.keysDestroyed).toBe(1)
      expect(again).toMatchObject({ subjectId: outcome.subjectId, keysDestroyed: 0, forgottenBefore: { by: "dpo" } })
      expect(read[0]?.data).toEqual({ payerMid: forgotten, ip: forgotten, amount: 5 })
    }),
  )

  it.effect(
    "keeps fields of an event that names no subject under its stream's, and a notification's copy under the stream it names: one forget of the stream reaches both",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const read = yield* onPayers(
          world,
          Effect.gen(function* () {
            yield* append("order/1", event("OrderCreated", { email: "amal@example.ae", amount: 5 }))
            yield* append("order/2", event("OrderCreated", { email: "noor@example.ae", amount: 6 }))
            yield* append(
              "notification/1",
              event("NotificationScheduled", { orderingKey: "order/1", order: { email: "amal@example.ae" } }),
            )
            const outcome = yield* Effect.flatMap(Sealing, (sealing) =>
              sealing.forgetOfStream("payer", "order/1", "dpo"),
            )
            expect(outcome.keysDestroyed).toBe(1)
            return yield* Effect.all([readStream("order/1"), readStream("order/2"), readStream("notification/1")])
          }),
        )
        const [order1, , notification] = yield* rawLog(world)
        expect(subjectsOf(notification)).toEqual(subjectsOf(order1))
        expect(JSON.stringify((yield* rawLog(world)).map((r) => r.data))).not.toContain("example.ae")
        expect(read.map((events) => events[0]?.data)).toEqual([
          { email: forgotten, amount: 5 },
          { email: "noor@example.ae", amount: 6 },
          { orderingKey: "order/1", order: { email: forgotten } },
        ])
      }),
  )

  it.effect(
    "seals again whole an event sealed under an earlier plan with newer fields in clear (import --seal): all under the subject it names",
    () =>
      Effect.gen(function* () {
        const world = newWorld()
        const eid = createHash("sha256").update("784-1990-2").digest("hex")
        const earlierPlan: SealingPlan = {
          events: { OrderCreated: [{ kind: "payer", identifiedBy: "eid", fields: ["eid"] }] },
          streams: [],
        }
        yield* sealedOn(world, append("order/1", event("OrderCreated", { eid, email: "amal@example.ae" })), {
          plan: earlierPlan,
        })
        const [partly] = yield* rawLog(world)
        expect(partly?.data).toMatchObject({ email: "amal@example.ae" })
        // A new store on the same key table, as import --seal fills one with the file's keys.
        const target: World = { ...world, raw: makeMemoryEventStore() }
        const read = yield* onPayers(
          target,
          Effect.gen(function* () {
            yield* append("order/1", { type: "OrderCreated", schemaVersion: 1, data: partly?.data })
            const before = yield* readStream("order/1")
            yield* Effect.flatMap(Sealing, (sealing) => sealing.forget("payer", eid, "dpo"))
            return [before, yield* readStream("order/1")]
          }),
        )
        const [resealed] = yield* rawLog(target)
        expect(JSON.stringify(resealed?.data)).not.toContain("example.ae")
        expect(resealed?.data).toMatchObject({ $sealed: [{ fields: ["eid", "email"] }] })
        expect(read.map((events) => events[0]?.data)).toEqual([
          { eid, email: "amal@example.ae" },
          { eid: forgotten, email: forgotten },
        ])
      }),
  )

  it.effect("keys fields of an event that names its subject by that subject, not by its stream", () =>
    Effect.gen(function* () {
      const world = newWorld()
      const eid = createHash("sha256").update("784-1990-1").digest("hex")
      const read = yield* onPayers(
        world,
        Effect.gen(function* () {
          yield* append("order/1", event("OrderCreated", { eid, email: "amal@example.ae" }))
          yield* Effect.flatMap(Sealing, (sealing) => sealing.forgetOfStream("payer", "order/1", "dpo"))
          const kept = yield* readStream("order/1")
          yield* Effect.flatMap(Sealing, (sealing) => sealing.forget("payer", eid, "dpo"))
          return [kept, yield* readStream("order/1")]
        }),
      )
      expect(read.map((events) => events[0]?.data)).toEqual([
        { eid, email: "amal@example.ae" },
        { eid: forgotten, email: forgotten },
      ])
    }),
  )
})
