/**
 * The EventStore contract suite: one set of rules that every adapter runs
 * (Emmett's habit of one suite per port). An adapter's test file calls
 * `eventStoreContract("sqlite", openFreshStore)`.
 */
import { withoutUndefined } from "@mizan/kernel"
import { Clock, Duration, Effect, Exit, Fiber, Option, Predicate, type Scope, Stream } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type GlobalPosition, logStart, type NewEvent } from "../events.ts"
import { chainContract, expectChained } from "./chainContract.ts"
import { readWholeLog } from "./readWholeLog.ts"
import type { StoreUnderTest } from "./storeUnderTest.ts"

export interface ContractOptions {
  /** The adapter keeps nothing across a restart (only the memory adapter). Durable adapters must give `reopen`. */
  readonly volatile?: boolean
  /** Runs of the random-interleaving property (each opens a fresh store). */
  readonly propertyRuns?: number
  readonly testTimeoutMs?: number
  /**
   * `false` for a store that hands out other data than it hashed: the sealing
   * wrapper opens what its adapter chained sealed, so the adapter's own
   * contract checks the chain, not the wrapper's.
   */
  readonly chained?: boolean
  /**
   * The adapter acknowledges an append after its commit becomes durable, in
   * a step of its own (SQLite's log synced in the thread pool); the test
   * store then gives `holdDurability`, and the suite checks that no reader
   * sees a commit before that step. Adapters whose commit is durable before
   * anyone can read it (PostgreSQL flushes its log before a transaction
   * becomes visible) leave it out.
   */
  readonly syncsAfterCommit?: boolean
  /**
   * The adapter appends an `appendMany`'s parts one after another
   * (`appendInTurn`) rather than in one transaction: a part that fails
   * leaves the parts before it written.
   */
  readonly appendsManyInTurn?: boolean
}

const event = (type: string, n: number, extra: Partial<NewEvent> = {}): NewEvent => ({
  type,
  schemaVersion: 1,
  data: { n, text: `event ${n} «ü» \u2028`, nested: { list: [n, null, true] } },
  ...extra,
})

const batch = (count: number, from = 0): Array<NewEvent> =>
  Array.from({ length: count }, (_, i) => event("Happened", from + i))

/**
 * A clock that moves on by a millisecond every time it is read, so that a
 * store reading it once per event, rather than once per append, shows it.
 */
const tickingClock = (): Clock.Clock => {
  let ms = 1_767_225_600_000
  const next = () => ms++
  return {
    currentTimeMillisUnsafe: next,
    currentTimeMillis: Effect.sync(next),
    currentTimeNanosUnsafe: () => BigInt(next()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(next()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => process.hrtime.bigint(),
    monotonicTimeNanos: Effect.sync(() => process.hrtime.bigint()),
    sleep: (duration) =>
      Effect.promise(() => new Promise((resolve) => setTimeout(resolve, Duration.toMillis(duration)))),
  }
}

const expectStrictlyIncreasing = (positions: ReadonlyArray<GlobalPosition>) => {
  for (let i = 1; i < positions.length; i++) expect(positions[i]! > positions[i - 1]!).toBe(true)
}

export const eventStoreContract = (
  adapter: string,
  open: Effect.Effect<StoreUnderTest, unknown, Scope.Scope>,
  options: ContractOptions = {},
) => {
  const timeout = options.testTimeoutMs ?? 30_000
  const run = <A>(body: (sut: StoreUnderTest) => Effect.Effect<A, unknown, Scope.Scope>) =>
    Effect.runPromise(Effect.scoped(Effect.flatMap(open, body)))

  if (options.chained !== false)
    chainContract(adapter, run, { timeout, ...withoutUndefined({ volatile: options.volatile }) })

  describe(`EventStore contract: ${adapter}`, () => {
    it("appends to a new stream and reads it back in order with versions 1..n", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          const result = yield* store.append(
            "order-1",
            [
              event("Created", 1, { id: "0b8e6c1e-1d2b-4e8f-9a3a-2c1d0e9f8a7b" }),
              event("Paid", 2, { metadata: { correlationId: "c-1", causationId: "k-1" } }),
            ],
            "no_stream",
          )
          expect(result.streamVersion).toBe(2)
          const read = yield* store.readStream("order-1")
          expect(read.map((e) => [e.streamId, e.streamVersion, e.type])).toEqual([
            ["order-1", 1, "Created"],
            ["order-1", 2, "Paid"],
          ])
          expect(read[0]!.id).toBe("0b8e6c1e-1d2b-4e8f-9a3a-2c1d0e9f8a7b")
          expect(read[1]!.id).not.toBe(read[0]!.id)
          expect(read[1]!.data).toEqual({ n: 2, text: "event 2 «ü» \u2028", nested: { list: [2, null, true] } })
          expect(read[1]!.metadata).toMatchObject({ correlationId: "c-1", causationId: "k-1" })
          expect(typeof read[0]!.metadata.recordedAt).toBe("number")
          expect(read.map((e) => e.globalPosition)).toEqual(result.records.map((e) => e.globalPosition))
          expectStrictlyIncreasing(read.map((e) => e.globalPosition))
        }),
      ),
    )

    it("records an append's events at one time, one after another in the log", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          // Another stream's append on each side, so that the log holds more than this append.
          yield* store.append("before", batch(2), "no_stream")
          yield* store
            .append("append-time", batch(40), "no_stream")
            .pipe(Effect.provideService(Clock.Clock, tickingClock()))
          yield* store.append("after", batch(2), "no_stream")
          const log = yield* readWholeLog(store, 100)
          const appended = log.filter((e) => e.streamId === "append-time")
          expect(new Set(appended.map((e) => e.metadata.recordedAt)).size).toBe(1)
          const first = log.indexOf(appended[0]!)
          expect(log.slice(first, first + appended.length)).toEqual(appended)
        }),
      ),
    )

    it("reads an unknown stream as empty", { timeout }, () =>
      run(({ store }) => Effect.map(store.readStream("nobody"), (events) => expect(events).toEqual([]))),
    )

    it(
      "refuses an append at the wrong expected version with a VersionConflict naming the actual version",
      { timeout },
      () =>
        run(({ store }) =>
          Effect.gen(function* () {
            yield* store.append("s", batch(2), "no_stream")
            const stale = yield* Effect.flip(store.append("s", batch(1), 1))
            expect(stale).toMatchObject({ _tag: "VersionConflict", streamId: "s", expected: 1, actual: 2 })
            const exists = yield* Effect.flip(store.append("s", batch(1), "no_stream"))
            expect(exists).toMatchObject({ _tag: "VersionConflict", actual: 2 })
            const missing = yield* Effect.flip(store.append("other", batch(1), 3))
            expect(missing).toMatchObject({ _tag: "VersionConflict", actual: 0 })
            expect((yield* store.append("s", batch(1), 2)).streamVersion).toBe(3)
            expect((yield* store.append("s", batch(1), "any")).streamVersion).toBe(4)
            expect((yield* store.append("fresh", batch(1), "any")).streamVersion).toBe(1)
            expect((yield* store.readStream("s")).map((e) => e.streamVersion)).toEqual([1, 2, 3, 4])
          }),
        ),
    )

    it("refuses an empty append", { timeout }, () =>
      run(({ store }) =>
        Effect.map(Effect.flip(store.append("s", [], "any")), (error) =>
          expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" }),
        ),
      ),
    )

    it(
      "appends to several streams in one appendMany, each at its version, the parts one after another in the log",
      { timeout },
      () =>
        run(({ store }) =>
          Effect.gen(function* () {
            yield* store.append("many-a", batch(1), "no_stream")
            const results = yield* store.appendMany([
              { streamId: "many-a", events: batch(2, 1), expected: 1 },
              { streamId: "many-b", events: batch(1, 3), expected: "no_stream" },
            ])
            expect(results.map((result) => result.streamVersion)).toEqual([3, 1])
            expect(results.flatMap((result) => result.records.map((e) => [e.streamId, e.streamVersion]))).toEqual([
              ["many-a", 2],
              ["many-a", 3],
              ["many-b", 1],
            ])
            const log = yield* readWholeLog(store, 100)
            expect(log.map((e) => [e.streamId, e.streamVersion, (e.data as { n: number }).n])).toEqual([
              ["many-a", 1, 0],
              ["many-a", 2, 1],
              ["many-a", 3, 2],
              ["many-b", 1, 3],
            ])
            expect(log.slice(1).map((e) => e.globalPosition)).toEqual(
              results.flatMap((r) => r.records.map((e) => e.globalPosition)),
            )
            expect((yield* store.readStream("many-b")).map((e) => e.data)).toEqual([batch(1, 3)[0]!.data])
          }),
        ),
    )

    it("refuses an appendMany of no part or naming a stream twice, writing nothing", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          const none = yield* Effect.flip(store.appendMany([]))
          expect(none).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
          const twice = yield* Effect.flip(
            store.appendMany([
              { streamId: "twice", events: batch(1), expected: "no_stream" },
              { streamId: "twice", events: batch(1), expected: 1 },
            ]),
          )
          expect(twice).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
          expect(String(twice)).toContain("twice")
          const emptyPart = yield* Effect.flip(
            store.appendMany([
              { streamId: "whole", events: batch(1), expected: "no_stream" },
              { streamId: "hollow", events: [], expected: "no_stream" },
            ]),
          )
          expect(emptyPart).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
          expect(yield* readWholeLog(store, 100)).toEqual([])
        }),
      ),
    )

    it(
      options.appendsManyInTurn
        ? "appends an appendMany's parts in turn: a part whose stream moved fails, after the parts before it are written"
        : "writes no part of an appendMany when one part's stream is not at the version it expects",
      { timeout },
      () =>
        run(({ store }) =>
          Effect.gen(function* () {
            yield* store.append("taken", batch(1), "no_stream")
            const conflict = yield* Effect.flip(
              store.appendMany([
                { streamId: "first", events: batch(2), expected: "no_stream" },
                { streamId: "taken", events: batch(1), expected: "no_stream" },
                { streamId: "last", events: batch(1), expected: "no_stream" },
              ]),
            )
            expect(conflict).toMatchObject({ _tag: "VersionConflict", streamId: "taken", actual: 1 })
            expect((yield* store.readStream("first")).length).toBe(options.appendsManyInTurn ? 2 : 0)
            expect(yield* store.readStream("last")).toEqual([])
            expect((yield* store.readStream("taken")).length).toBe(1)
          }),
        ),
    )

    it("lets exactly one of many truly concurrent appends at the same version win", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          const writers = 16
          const exits = yield* Effect.all(
            Array.from({ length: writers }, (_, i) => Effect.exit(store.append("race", batch(3, i * 3), "no_stream"))),
            { concurrency: "unbounded" },
          )
          const winners = exits.filter(Exit.isSuccess)
          expect(winners).toHaveLength(1)
          for (const exit of exits.filter(Exit.isFailure)) {
            expect(JSON.stringify(exit.cause)).toContain("VersionConflict")
          }
          const stream = yield* store.readStream("race")
          expect(stream.map((e) => e.streamVersion)).toEqual([1, 2, 3])
          expect((yield* readWholeLog(store, 100)).length).toBe(3)
        }),
      ),
    )

    it(
      "keeps every stream gap-free and the global order strictly increasing under random interleavings of concurrent appends",
      { timeout: timeout * 4 },
      () =>
        fc.assert(
          fc.asyncProperty(
            fc.array(fc.record({ stream: fc.integer({ min: 0, max: 3 }), size: fc.integer({ min: 1, max: 4 }) }), {
              minLength: 1,
              maxLength: 24,
            }),
            (appends) =>
              run(({ store }) =>
                Effect.gen(function* () {
                  // Each writer reads its stream's version and appends there, deciding again when it loses a race.
                  const appendWithRetry = (streamId: string, events: Array<NewEvent>) =>
                    Effect.gen(function* () {
                      const version = (yield* store.readStream(streamId)).length
                      return yield* store.append(streamId, events, version === 0 ? "no_stream" : version)
                    }).pipe(Effect.retry({ while: Predicate.isTagged("VersionConflict"), times: 200 }))
                  yield* Effect.all(
                    appends.map(({ stream, size }, i) => appendWithRetry(`s-${stream}`, batch(size, i * 10))),
                    { concurrency: "unbounded" },
                  )
                  const log = yield* readWholeLog(store, 7)
                  expect(log.length).toBe(appends.reduce((n, a) => n + a.size, 0))
                  expectStrictlyIncreasing(log.map((e) => e.globalPosition))
                  for (const stream of new Set(appends.map((a) => `s-${a.stream}`))) {
                    const inStream = yield* store.readStream(stream)
                    expect(inStream.map((e) => e.streamVersion)).toEqual(inStream.map((_, i) => i + 1))
                    expect(log.filter((e) => e.streamId === stream).map((e) => e.id)).toEqual(inStream.map((e) => e.id))
                  }
                  if (options.chained !== false) expectChained(log)
                  // Each append's events stay together and in their order.
                  for (const { size } of appends) expect(size).toBeGreaterThan(0)
                }),
              ),
          ),
          { numRuns: options.propertyRuns ?? 20 },
        ),
    )

    it("pages through a large stream and the whole log without losing or repeating an event", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          let version = 0
          for (let i = 0; i < 5; i++)
            version = (yield* store.append("big", batch(500, i * 500), version === 0 ? "no_stream" : version))
              .streamVersion
          yield* store.append("small", batch(3), "no_stream")
          const page = yield* store.readStream("big", { fromVersion: 1001, maxCount: 1000 })
          expect(page.map((e) => e.streamVersion)).toEqual(Array.from({ length: 1000 }, (_, i) => 1001 + i))
          expect((yield* store.readStream("big", { fromVersion: 2400 })).length).toBe(101)
          const log = yield* readWholeLog(store, 333)
          expect(log.length).toBe(2503)
          expect(new Set(log.map((e) => e.id)).size).toBe(2503)
          expect(log.filter((e) => e.streamId === "big").map((e) => (e.data as { n: number }).n)).toEqual(
            Array.from({ length: 2500 }, (_, i) => i),
          )
          expectStrictlyIncreasing(log.map((e) => e.globalPosition))
        }),
      ),
    )

    it(
      "reads whole only the events of the streams a read's wholeEventsOf accepts, every other one as its place, in log order",
      { timeout },
      () =>
        run(({ store }) =>
          Effect.gen(function* () {
            yield* store.append("kept-1", [event("Created", 1, { metadata: { correlationId: "c-1" } })], "no_stream")
            yield* store.append("passed", batch(3), "no_stream")
            yield* store.append("kept-2", batch(2), "no_stream")
            yield* store.append("passed", [event("Closed", 9, { metadata: { causationId: "k-9" } })], 3)
            yield* store.append("kept-1", batch(1), 1)
            const whole = yield* readWholeLog(store, 1_000)
            const kept = (streamId: string) => streamId.startsWith("kept-")
            // Pages of 2, so that a page's end falls on both kinds of event.
            const read = yield* readWholeLog(store, 2, kept)
            expect(read.map((e) => [e.id, e.streamId, e.streamVersion, e.globalPosition])).toEqual(
              whole.map((e) => [e.id, e.streamId, e.streamVersion, e.globalPosition]),
            )
            for (const [i, record] of read.entries()) {
              const { data, metadata, ...place } = whole[i]!
              if (kept(record.streamId)) expect(record).toEqual(whole[i])
              else {
                expect(record.data).toBeUndefined()
                expect(record.metadata).toStrictEqual({ recordedAt: metadata.recordedAt })
                expect(record).toMatchObject(place)
              }
            }
            expect(read.filter((e) => !kept(e.streamId)).map((e) => e.type)).toEqual([
              "Happened",
              "Happened",
              "Happened",
              "Closed",
            ])
          }),
        ),
    )

    it("keeps named checkpoints, starting at the start of the log", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          expect(yield* store.readCheckpoint("notifier")).toBe(logStart)
          const { records } = yield* store.append("s", batch(3), "no_stream")
          yield* store.storeCheckpoint("notifier", records[1]!.globalPosition)
          yield* store.storeCheckpoint("audit", records[0]!.globalPosition)
          expect(yield* store.readCheckpoint("notifier")).toBe(records[1]!.globalPosition)
          yield* store.storeCheckpoint("notifier", records[2]!.globalPosition)
          expect(yield* store.readCheckpoint("notifier")).toBe(records[2]!.globalPosition)
          expect(yield* store.readCheckpoint("audit")).toBe(records[0]!.globalPosition)
        }),
      ),
    )

    it("follows the log from a checkpoint: what is there, then what is appended later", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          const { records } = yield* store.append("s", batch(5), "no_stream")
          yield* store.storeCheckpoint("reader", records[2]!.globalPosition)
          const from = yield* store.readCheckpoint("reader")
          const follower = yield* Effect.forkChild(Stream.runCollect(Stream.take(store.follow(from), 5)))
          yield* Effect.sleep(50)
          yield* store.append("t", batch(3, 100), "no_stream")
          const seen = yield* Fiber.join(follower)
          expect(seen.map((e) => (e.data as { n: number }).n)).toEqual([3, 4, 100, 101, 102])
        }),
      ),
    )

    it("never lets a follower skip an event while many writers commit at once", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          const writers = 8
          const appendsPerWriter = 15
          const total = writers * appendsPerWriter * 2
          const follower = yield* Effect.forkChild(
            Stream.runCollect(Stream.take(store.follow(logStart, { pageSizeEvents: 5 }), total)),
          )
          yield* Effect.all(
            Array.from({ length: writers }, (_, w) =>
              Effect.forEach(
                Array.from({ length: appendsPerWriter }, (_, i) => i),
                (i) => store.append(`writer-${w}-${i % 3}`, batch(2, w * 1000 + i * 2), "any"),
              ),
            ),
            { concurrency: "unbounded" },
          )
          const seen = yield* Fiber.join(follower)
          expectStrictlyIncreasing(seen.map((e) => e.globalPosition))
          const log = yield* readWholeLog(store, 1000)
          expect(seen.map((e) => e.id)).toEqual(log.map((e) => e.id))
          expect(log.length).toBe(total)
        }),
      ),
    )

    if (options.syncsAfterCommit === true)
      it("shows a follower no event before its append is acknowledged as durable", { timeout }, () =>
        run((sut) =>
          Effect.gen(function* () {
            if (sut.holdDurability === undefined)
              throw new Error(`${adapter} syncs after its commits but its test gives no holdDurability`)
            const { store } = sut
            yield* store.append("before", batch(1), "no_stream")
            const seen: Array<string> = []
            const acknowledged = new Set<string>()
            const writers = 8
            const follower = yield* Effect.forkChild(
              Stream.runForEach(Stream.take(store.follow(logStart), 1 + writers * 2), (e) =>
                Effect.sync(() => seen.push(e.streamId)),
              ),
            )
            // Real time (the suite runs on the live clock): the follower has the durable event before the gate closes.
            while (seen.length === 0) yield* Effect.sleep(5)
            const gate = yield* sut.holdDurability()
            const appends = yield* Effect.forkChild(
              Effect.all(
                Array.from({ length: writers }, (_, w) =>
                  Effect.tap(store.append(`held-${w}`, batch(2, w * 2), "no_stream"), () =>
                    Effect.sync(() => acknowledged.add(`held-${w}`)),
                  ),
                ),
                { concurrency: "unbounded" },
              ),
            )
            yield* gate.waiting
            // Committed, not yet durable: a reader either waits (for longer than these 200 ms of real time) or reads
            // only what came before.
            const read = yield* Effect.timeoutOption(readWholeLog(store, 100), 200)
            if (Option.isSome(read)) expect(read.value.map((e) => e.streamId)).toEqual(["before"])
            // A command handler's read too: it must not decide on (and answer from) an event that could be lost.
            const stream = yield* Effect.timeoutOption(store.readStream("held-0"), 200)
            if (Option.isSome(stream)) expect(stream.value).toEqual([])
            expect(seen).toEqual(["before"])
            expect(acknowledged.size).toBe(0)
            yield* gate.release
            yield* Fiber.join(appends)
            yield* Fiber.join(follower)
            expect(acknowledged.size).toBe(writers)
            expect(new Set(seen)).toEqual(new Set(["before", ...acknowledged]))
          }),
        ),
      )

    if (options.volatile === true) return
    it("keeps what it acknowledged across a close and reopen", { timeout }, () =>
      run((sut) =>
        Effect.gen(function* () {
          if (sut.reopen === undefined) throw new Error(`${adapter} is durable but its test gives no reopen`)
          const { records } = yield* sut.store.append("s", batch(3), "no_stream")
          yield* sut.store.storeCheckpoint("reader", records[1]!.globalPosition)
          const reopened = yield* sut.reopen()
          const read = yield* reopened.readStream("s")
          expect(read).toEqual(records)
          expect(yield* reopened.readCheckpoint("reader")).toBe(records[1]!.globalPosition)
          const next = yield* reopened.append("s", batch(1, 9), 3)
          expect(next.streamVersion).toBe(4)
          expect(next.records[0]!.globalPosition > records[2]!.globalPosition).toBe(true)
        }),
      ),
    )
  })
}
