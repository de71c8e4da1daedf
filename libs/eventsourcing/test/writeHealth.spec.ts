/**
 * The write health of a store (src/writeHealth.ts): which write outcomes
 * mark writes failing or working, the probe that finds out while they fail,
 * and the log lines at each change. A full disk, a read-only file and a
 * stopped PostgreSQL under a gateway process are apps/gateway/test/writeHealth.spec.ts's.
 */
import { it } from "@effect/vitest"
import { Effect, Layer, Logger, References } from "effect"
import { describe, expect } from "vitest"
import {
  EventStore,
  layerMemory,
  layerWriteHealth,
  logStart,
  makeMemoryEventStore,
  StoreError,
  WriteHealth,
  writeProbeCheckpoint,
} from "../src/index.ts"

const happened = { type: "Happened", schemaVersion: 1, data: {} }

/** Checkpoints stored, in order: what the probe wrote. */
const storedCheckpoints: Array<readonly [string, bigint]> = []

/** A memory store whose writes fail with `failure` while it is set; each checkpoint stored noted in `storedCheckpoints`. */
const storeFailingWith = (outage: { failure: StoreError | undefined }) =>
  Layer.sync(EventStore, () => {
    const inner = makeMemoryEventStore()
    const failing = <A, E>(write: Effect.Effect<A, E>): Effect.Effect<A, E | StoreError> =>
      Effect.suspend(
        (): Effect.Effect<A, E | StoreError> => (outage.failure === undefined ? write : Effect.fail(outage.failure)),
      )
    return EventStore.of({
      ...inner,
      append: (streamId, events, expected) => failing(inner.append(streamId, events, expected)),
      storeCheckpoint: (name, position) =>
        Effect.tap(failing(inner.storeCheckpoint(name, position)), () =>
          Effect.sync(() => storedCheckpoints.push([name, position])),
        ),
    })
  })

const diskFull = new StoreError({ reason: "Unavailable", detail: "appending: database or disk is full" })

/** The messages logged while `effect` runs, at every level. */
const loggedBy = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const messages: Array<string> = []
    const logger = Logger.make(({ message }) => {
      messages.push(String(Array.isArray(message) ? message[0] : message))
    })
    const result = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { result, messages }
  })

const append = (streamId: string) => Effect.flatMap(EventStore, (store) => store.append(streamId, [happened], "any"))

const stateNow = Effect.map(WriteHealth, (health) => health.state().status)

describe("write health", () => {
  it.effect("is unproven until a write, then ok once a write goes through", () =>
    Effect.gen(function* () {
      expect(yield* stateNow).toBe("unproven")
      yield* append("s-1")
      expect(yield* stateNow).toBe("ok")
    }).pipe(Effect.provide(layerWriteHealth.pipe(Layer.provideMerge(layerMemory)))),
  )

  it.effect(
    "is failing after a write the store fails, with the log saying so once, and ok with the log saying so after the next write that goes through",
    () => {
      const outage: { failure: StoreError | undefined } = { failure: undefined }
      return Effect.gen(function* () {
        yield* append("s-1")
        outage.failure = diskFull
        const during = yield* loggedBy(
          Effect.gen(function* () {
            yield* Effect.flip(append("s-2"))
            yield* Effect.flip(append("s-3"))
          }),
        )
        const failing = (yield* WriteHealth).state()
        expect(failing).toMatchObject({ status: "failing", detail: diskFull.detail })
        expect(during.messages).toEqual(["store writes fail; /ready answers 503 until a write goes through"])
        outage.failure = undefined
        const after = yield* loggedBy(Effect.andThen(append("s-4"), append("s-5")))
        expect(yield* stateNow).toBe("ok")
        expect(after.messages).toEqual(["store writes go through again"])
      }).pipe(Effect.provide(layerWriteHealth.pipe(Layer.provideMerge(storeFailingWith(outage)))))
    },
  )

  it.effect("takes neither a version conflict nor the caller's mistake for a failing store", () => {
    const outage: { failure: StoreError | undefined } = { failure: undefined }
    return Effect.gen(function* () {
      yield* append("s-1")
      const store = yield* EventStore
      yield* Effect.flip(store.append("s-1", [happened], "no_stream"))
      outage.failure = new StoreError({ reason: "InvalidRequest", detail: "an event id already recorded" })
      yield* Effect.flip(append("s-2"))
      expect(yield* stateNow).toBe("ok")
    }).pipe(Effect.provide(layerWriteHealth.pipe(Layer.provideMerge(storeFailingWith(outage)))))
  })

  it.effect(
    "probes with the write-probe checkpoint at the log's start, adding no event, and answers what it found",
    () => {
      const outage: { failure: StoreError | undefined } = { failure: diskFull }
      return Effect.gen(function* () {
        const health = yield* WriteHealth
        const store = yield* EventStore
        expect((yield* health.probe).status).toBe("failing")
        outage.failure = undefined
        expect((yield* health.probe).status).toBe("ok")
        expect(writeProbeCheckpoint).toBe("write-probe")
        expect(storedCheckpoints).toEqual([["write-probe", logStart]])
        expect(yield* store.readAll({ after: logStart, maxCount: 10 })).toEqual([])
      }).pipe(
        Effect.provide(layerWriteHealth.pipe(Layer.provideMerge(storeFailingWith(outage)))),
        Effect.provideService(References.MinimumLogLevel, "None"),
      )
    },
  )
})
