import { it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { Effect, Exit, Result } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import {
  AppendSignal,
  CommandLocks,
  EventStore,
  handleCommand,
  handleCommandOnNewStream,
  layerMemory,
  loadAggregate,
  makeMemoryEventStore,
  StreamLocks,
} from "../src/index.ts"
import { budget, deciderSpec } from "../src/testing/index.ts"

/** Each test on a store of its own: the tests reuse stream ids. */
const onMemoryStore = Effect.provide(layerMemory)

/** A fast-check property owns its loop and awaits each run, so each run is a promise of its own. */
const runProperty = <A, E>(effect: Effect.Effect<A, E, EventStore>) => Effect.runPromise(onMemoryStore(effect))

describe("command handler", () => {
  it.effect("decides on the folded stream and appends with the expected version", () =>
    Effect.gen(function* () {
      yield* handleCommand(budget, "b-1", { _tag: "Fund", amount: 100 })
      const spent = yield* handleCommand(budget, "b-1", { _tag: "Spend", amount: 30, reference: "r1" })
      expect(spent.state.balance).toBe(70)
      expect(spent.streamVersion).toBe(2)
      expect(spent.events).toEqual([{ _tag: "Spent", amount: 30, reference: "r1" }])
      expect(spent.records.map((r) => [r.type, r.schemaVersion, r.streamVersion])).toEqual([["Spent", 2, 2]])
      const loaded = yield* loadAggregate(budget, "b-1")
      expect(loaded).toEqual({ state: spent.state, streamVersion: 2 })
    }).pipe(onMemoryStore),
  )

  it.effect("folds a stream up to a version: the state as it was just after that event", () =>
    Effect.gen(function* () {
      yield* handleCommand(budget, "b-1", { _tag: "Fund", amount: 100 })
      for (const reference of ["r1", "r2", "r3"])
        yield* handleCommand(budget, "b-1", { _tag: "Spend", amount: 10, reference })
      const asOf = (upToVersion: number) => loadAggregate(budget, "b-1", { upToVersion })
      expect((yield* asOf(2)).state.balance).toBe(90)
      expect((yield* asOf(2)).streamVersion).toBe(2)
      expect((yield* asOf(0)).streamVersion).toBe(0)
      // Past the end, it is the whole stream.
      expect(yield* asOf(9)).toEqual(yield* loadAggregate(budget, "b-1"))
      expect((yield* asOf(9)).state.balance).toBe(70)
    }).pipe(onMemoryStore),
  )

  it.effect("appends nothing for a repeat and answers the current state", () =>
    Effect.gen(function* () {
      yield* handleCommand(budget, "b-1", { _tag: "Fund", amount: 100 })
      yield* handleCommand(budget, "b-1", { _tag: "Spend", amount: 30, reference: "r1" })
      const again = yield* handleCommand(budget, "b-1", { _tag: "Spend", amount: 30, reference: "r1" })
      expect(again.events).toEqual([])
      expect(again.state.balance).toBe(70)
      expect((yield* (yield* EventStore).readStream("b-1")).length).toBe(2)
    }).pipe(onMemoryStore),
  )

  it.effect("answers the decider's refusal and appends nothing", () =>
    Effect.gen(function* () {
      const refused = yield* Effect.flip(handleCommand(budget, "b-1", { _tag: "Spend", amount: 1, reference: "r" }))
      expect(refused).toMatchObject({ _tag: "Rejection", code: "REFUND_AMOUNT_EXCEEDED" })
      expect((yield* (yield* EventStore).readStream("b-1")).length).toBe(0)
    }).pipe(onMemoryStore),
  )

  it.effect("reads old event versions through their upcasters", () =>
    Effect.gen(function* () {
      const store = yield* EventStore
      yield* store.append(
        "b-old",
        [
          { type: "Funded", schemaVersion: 1, data: { _tag: "Funded", amount: 50 } },
          { type: "Spent", schemaVersion: 1, data: { _tag: "Spent", amount: 20 } },
        ],
        "no_stream",
      )
      const { state } = yield* loadAggregate(budget, "b-old")
      expect(state.balance).toBe(30)
      expect([...state.references]).toEqual(["legacy"])
    }).pipe(onMemoryStore),
  )

  it.effect("fails with an Undecodable store error naming the stream and version of an event it cannot read", () =>
    Effect.gen(function* () {
      const store = yield* EventStore
      yield* store.append("b-bad", [{ type: "Funded", schemaVersion: 1, data: { amount: "lots" } }], "no_stream")
      const error = yield* Effect.flip(loadAggregate(budget, "b-bad"))
      expect(error).toMatchObject({ _tag: "StoreError", reason: "Undecodable" })
      expect(error.message).toContain("b-bad@1")
      expect(error.message).toContain("amount must be a number")
    }).pipe(onMemoryStore),
  )

  it("refuses an event version newer than the code knows", () => {
    const decoded = budget.codec.decode({ type: "Spent", schemaVersion: 3, data: { amount: 1, reference: "x" } })
    expect(Result.isFailure(decoded) && decoded.failure).toContain("newer than this code knows")
  })

  test.prop([
    fc.integer({ min: 1, max: 200 }),
    fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 30 }),
  ])(
    "no interleaving of concurrent commands overspends: conflicts are decided again on the new state",
    (funds, spends) =>
      runProperty(
        Effect.gen(function* () {
          yield* handleCommand(budget, "b", { _tag: "Fund", amount: funds })
          const exits = yield* Effect.all(
            spends.map((amount, i) =>
              Effect.exit(handleCommand(budget, "b", { _tag: "Spend", amount, reference: `r${i}` })),
            ),
            { concurrency: "unbounded" },
          )
          const accepted = spends.filter((_, i) => Exit.isSuccess(exits[i]!))
          const { state } = yield* loadAggregate(budget, "b")
          expect(state.balance).toBe(funds - accepted.reduce((a, b) => a + b, 0))
          expect(state.balance).toBeGreaterThanOrEqual(0)
        }),
      ),
  )
})

/** The memory store, counting the stream reads made through it. */
const countingReads = () => {
  const inner = makeMemoryEventStore()
  const counted = { reads: 0 }
  const store = EventStore.of({
    ...inner,
    readStream: (streamId, options) =>
      Effect.tap(
        inner.readStream(streamId, options),
        Effect.sync(() => void counted.reads++),
      ),
  })
  return { store, counted }
}

describe("command handler on a stream expected new", () => {
  it.effect("opens a new stream without reading it first, and answers as handleCommand does", () =>
    Effect.gen(function* () {
      const { store, counted } = countingReads()
      const opened = yield* handleCommandOnNewStream(budget, "b-1", { _tag: "Fund", amount: 100 }).pipe(
        Effect.provideService(EventStore, store),
      )
      expect(counted.reads).toBe(0)
      expect(opened.events).toEqual([{ _tag: "Funded", amount: 100 }])
      expect(opened.streamVersion).toBe(1)
      expect(opened.records.map((r) => [r.type, r.streamVersion])).toEqual([["Funded", 1]])
      const loaded = yield* loadAggregate(budget, "b-1").pipe(Effect.provideService(EventStore, store))
      expect(loaded).toEqual({ state: opened.state, streamVersion: 1 })
    }),
  )

  it.effect("on a stream that exists after all, reads it and decides on its state", () =>
    Effect.gen(function* () {
      yield* handleCommand(budget, "b-1", { _tag: "Fund", amount: 100 })
      const again = yield* handleCommandOnNewStream(budget, "b-1", { _tag: "Fund", amount: 50 })
      expect(again.state.balance).toBe(150)
      expect(again.streamVersion).toBe(2)
      expect((yield* (yield* EventStore).readStream("b-1")).length).toBe(2)
    }).pipe(onMemoryStore),
  )

  it.effect("a command the empty state refuses is decided on the stream's real state", () =>
    Effect.gen(function* () {
      yield* handleCommand(budget, "b-1", { _tag: "Fund", amount: 100 })
      // Spending refuses on an empty budget; on this one it is taken.
      const spent = yield* handleCommandOnNewStream(budget, "b-1", { _tag: "Spend", amount: 30, reference: "r1" })
      expect(spent.state.balance).toBe(70)
      const refused = yield* Effect.flip(
        handleCommandOnNewStream(budget, "b-2", { _tag: "Spend", amount: 1, reference: "r" }),
      )
      expect(refused).toMatchObject({ _tag: "Rejection", code: "REFUND_AMOUNT_EXCEEDED" })
    }).pipe(onMemoryStore),
  )

  it.effect("of many concurrent openings of one stream, exactly one opens it and the others decide on it", () =>
    Effect.gen(function* () {
      const opened = yield* Effect.all(
        Array.from({ length: 16 }, () => handleCommandOnNewStream(budget, "b-1", { _tag: "Fund", amount: 10 })),
        { concurrency: "unbounded" },
      )
      expect(opened.map((o) => o.streamVersion).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 16 }, (_, i) => i + 1),
      )
      expect((yield* loadAggregate(budget, "b-1")).state.balance).toBe(160)
    }).pipe(onMemoryStore),
  )
})

describe("stream locks", () => {
  it.effect("lets every one of many concurrent commands on one stream through in turn, then forgets the lock", () =>
    Effect.gen(function* () {
      const locks = new StreamLocks()
      yield* handleCommand(budget, "b", { _tag: "Fund", amount: 1_000 })
      const exits = yield* Effect.all(
        Array.from({ length: 64 }, (_, i) =>
          Effect.exit(
            handleCommand(budget, "b", { _tag: "Spend", amount: 10, reference: `r${i}` }).pipe(
              Effect.provideService(CommandLocks, locks),
            ),
          ),
        ),
        { concurrency: "unbounded" },
      )
      expect(exits.filter(Exit.isSuccess)).toHaveLength(64)
      expect(locks.size).toBe(0)
    }).pipe(onMemoryStore),
  )

  it.effect("decides again when another process (another lock table) appended first, and still never overspends", () =>
    Effect.gen(function* () {
      // Reads yield to other fibers, so writers really interleave between their read and their append.
      const inner = makeMemoryEventStore()
      let conflicts = 0
      const racy = EventStore.of({
        ...inner,
        readStream: (streamId, options) => Effect.tap(inner.readStream(streamId, options), () => Effect.yieldNow),
        append: (streamId, events, expected) =>
          inner
            .append(streamId, events, expected)
            .pipe(Effect.tapError((e) => Effect.sync(() => (e._tag === "VersionConflict" ? conflicts++ : undefined)))),
      })
      yield* Effect.gen(function* () {
        yield* handleCommand(budget, "b", { _tag: "Fund", amount: 50 })
        // Each writer with its own lock table stands for a process of its own: only the store's version check guards.
        const exits = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) =>
            Effect.exit(
              handleCommand(budget, "b", { _tag: "Spend", amount: 10, reference: `p${i}` }).pipe(
                Effect.provideService(CommandLocks, new StreamLocks()),
              ),
            ),
          ),
          { concurrency: "unbounded" },
        )
        expect(exits.filter(Exit.isSuccess)).toHaveLength(5)
        expect((yield* loadAggregate(budget, "b")).state.balance).toBe(0)
      }).pipe(Effect.provideService(EventStore, racy))
      expect(conflicts).toBeGreaterThan(0)
    }),
  )
})

describe("given/when/then", () => {
  const spec = deciderSpec(budget)
  it("says what a decider decides on a history", () => {
    spec
      .given([{ _tag: "Funded", amount: 10 }])
      .when({ _tag: "Spend", amount: 4, reference: "a" })
      .thenEmits([{ _tag: "Spent", amount: 4, reference: "a" }])
    spec
      .given([{ _tag: "Funded", amount: 10 }])
      .when({ _tag: "Spend", amount: 11, reference: "a" })
      .thenRejects({ code: "REFUND_AMOUNT_EXCEEDED" })
    spec
      .given([
        { _tag: "Funded", amount: 10 },
        { _tag: "Spent", amount: 4, reference: "a" },
      ])
      .when({ _tag: "Spend", amount: 4, reference: "a" })
      .thenNothing()
    spec
      .given([])
      .when({ _tag: "Fund", amount: 3 })
      .thenState((state) => expect(state.balance).toBe(3))
  })
  it("fails when the decider does something else", () => {
    expect(() => spec.given([]).when({ _tag: "Spend", amount: 1, reference: "a" }).thenEmits([])).toThrow(/refused/)
    expect(() => spec.given([]).when({ _tag: "Fund", amount: 1 }).thenRejects({})).toThrow(/expected a refusal/)
  })
})

describe("AppendSignal", () => {
  // The signal bounds a wait with a timer of the runtime (setTimeout), not with Effect's clock, which a TestClock
  // cannot move: these tests run on the live clock and measure real time.
  it.live("does not wait when a notify came after the generation the follower saw", () =>
    Effect.gen(function* () {
      const signal = new AppendSignal()
      const seen = signal.generation
      signal.notify()
      const started = Date.now()
      yield* signal.wait(5_000, seen)
      expect(Date.now() - started).toBeLessThan(1_000)
    }),
  )
  it.live("waits for the next notify otherwise", () =>
    Effect.gen(function* () {
      const signal = new AppendSignal()
      yield* Effect.forkScoped(
        Effect.delay(
          Effect.sync(() => signal.notify()),
          50,
        ),
      )
      const started = Date.now()
      yield* signal.wait(5_000, signal.generation)
      expect(Date.now() - started).toBeGreaterThanOrEqual(40)
      expect(Date.now() - started).toBeLessThan(1_000)
    }),
  )
})
