import { test } from "@fast-check/vitest"
import { type AppendResult, makeMemoryEventStore, type NewEvent } from "@mizan/eventsourcing"
import { Effect, Exit, Fiber, Scope, Stream } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { openDatabase } from "../src/connection.ts"
import { makeDurability } from "../src/durability.ts"
import { type AppendOutcome, makeGroupCommitWriter } from "../src/groupCommit.ts"
import { makeSqliteEventStore, type SqliteEventStore } from "../src/index.ts"
import type { LogSync } from "../src/logSync.ts"
import { chained, type EncodedEvent, encodeEvents } from "../src/rows.ts"
import { openFreshStore, tempDatabasePath } from "./support/stores.ts"

const event = (n: number, id?: string): NewEvent => ({
  type: "Happened",
  schemaVersion: 1,
  data: { n },
  ...(id === undefined ? {} : { id }),
})

const run = <A>(body: (store: SqliteEventStore) => Effect.Effect<A, unknown, Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(openFreshStore(), ({ store }) => body(store))))

/** Runs every append at once and answers each one's exit, in the order given. */
const concurrently = (appends: ReadonlyArray<Effect.Effect<AppendResult, unknown>>) =>
  Effect.all(appends.map(Effect.exit), { concurrency: "unbounded" })

const transactionsDuring = <A, E, R>(store: SqliteEventStore, effect: Effect.Effect<A, E, R>) =>
  Effect.map(
    Effect.zip(
      Effect.sync(() => store.stats().transactions),
      effect,
    ),
    ([before, result]) => ({ result, transactions: store.stats().transactions - before }),
  )

describe("group commit", () => {
  it("commits 64 concurrent appends in far fewer transactions than appends, acknowledging each", () =>
    run((store) =>
      Effect.gen(function* () {
        const { result, transactions } = yield* transactionsDuring(
          store,
          concurrently(Array.from({ length: 64 }, (_, i) => store.append(`writer-${i}`, [event(i)], "no_stream"))),
        )
        expect(result.every(Exit.isSuccess)).toBe(true)
        expect(transactions).toBeLessThanOrEqual(4)
        expect(store.stats().appends).toBe(64)
        expect(store.stats().largestBatchAppends).toBeGreaterThanOrEqual(16)
      }),
    ))

  it("fails only the append whose expected version is wrong, committing the rest of its batch", () =>
    run((store) =>
      Effect.gen(function* () {
        const { result, transactions } = yield* transactionsDuring(
          store,
          concurrently([
            store.append("a", [event(1)], "no_stream"),
            store.append("b", [event(2)], 5),
            store.append("c", [event(3)], "no_stream"),
          ]),
        )
        expect(transactions).toBe(1)
        expect(result.map((exit) => exit._tag)).toEqual(["Success", "Failure", "Success"])
        expect(JSON.stringify(result[1])).toContain("VersionConflict")
        const log = yield* store.readAll({ after: -1n, maxCount: 10 })
        expect(log.map((e) => [e.streamId, e.globalPosition])).toEqual([
          ["a", 1n],
          ["c", 2n],
        ])
      }),
    ))

  it("lets appends to one stream in one batch see each other's versions", () =>
    run((store) =>
      Effect.gen(function* () {
        const { result, transactions } = yield* transactionsDuring(
          store,
          concurrently([
            store.append("s", [event(1), event(2)], "no_stream"),
            store.append("s", [event(3)], 2),
            store.append("s", [event(4)], 2),
          ]),
        )
        expect(transactions).toBe(1)
        expect(result.map((exit) => exit._tag)).toEqual(["Success", "Success", "Failure"])
        expect((yield* store.readStream("s")).map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3])
      }),
    ))

  it("rolls back the whole of an append that repeats a recorded event id, and only that append", () =>
    run((store) =>
      Effect.gen(function* () {
        const id = "018f0000-0000-7000-8000-000000000001"
        yield* store.append("first", [event(0, id)], "no_stream")
        const { result } = yield* transactionsDuring(
          store,
          concurrently([
            store.append("m", [event(1), event(2, id), event(3)], "no_stream"),
            store.append("n", [event(4)], "no_stream"),
            store.append("o", [event(5, id)], "no_stream"),
          ]),
        )
        expect(result.map((exit) => exit._tag)).toEqual(["Failure", "Success", "Failure"])
        expect(JSON.stringify(result[0])).toContain("InvalidRequest")
        expect(yield* store.readStream("m")).toEqual([])
        expect(yield* store.readStream("o")).toEqual([])
        expect((yield* store.readAll({ after: -1n, maxCount: 10 })).map((e) => e.streamId)).toEqual(["first", "n"])
        // The failed appends left no hole: the next append takes the next position.
        expect((yield* store.append("p", [event(6)], "no_stream")).records[0]!.globalPosition).toBe(3n)
      }),
    ))

  it("commits a queue longer than appendBatchMaxEvents in several transactions, in order", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { store } = yield* openFreshStore({ appendBatchMaxEvents: 10 })
          const { result, transactions } = yield* transactionsDuring(
            store,
            concurrently(Array.from({ length: 25 }, (_, i) => store.append("s", [event(i)], "any"))),
          )
          expect(result.every(Exit.isSuccess)).toBe(true)
          expect(transactions).toBeGreaterThanOrEqual(3)
          expect(store.stats().largestBatchAppends).toBeLessThanOrEqual(10)
          expect((yield* store.readStream("s")).map((e) => (e.data as { n: number }).n)).toEqual(
            Array.from({ length: 25 }, (_, i) => i),
          )
        }),
      ),
    ))

  it("commits the appends already queued when its scope closes", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const path = yield* tempDatabasePath
          const scope = yield* Scope.make()
          const store = yield* Scope.provide(scope)(makeSqliteEventStore(path))
          const appending = Effect.runFork(store.append("s", [event(1)], "no_stream"))
          yield* Scope.close(scope, Exit.void)
          expect((yield* Fiber.join(appending)).streamVersion).toBe(1)
          const reopened = yield* makeSqliteEventStore(path)
          expect((yield* reopened.readStream("s")).length).toBe(1)
        }),
      ),
    ))
})

describe("another connection writing the same file", () => {
  it("is seen by the next append: versions it wrote are checked, not a remembered version", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { path, store } = yield* openFreshStore()
          const other = yield* makeSqliteEventStore(path)
          yield* store.append("s", [event(1)], "no_stream")
          yield* other.append("s", [event(2)], 1)
          expect((yield* store.append("s", [event(3)], "any")).streamVersion).toBe(3)
          yield* other.append("s", [event(4)], 3)
          const stale = yield* Effect.flip(store.append("s", [event(5)], 3))
          expect(stale).toMatchObject({ _tag: "VersionConflict", actual: 4 })
          expect((yield* store.append("s", [event(5)], 4)).streamVersion).toBe(5)
        }),
      ),
    ))

  it("reaches a follower by polling", { timeout: 10_000 }, () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { path } = yield* openFreshStore()
          const follower = yield* makeSqliteEventStore(path, { followPollIntervalMs: 20 })
          const writer = yield* makeSqliteEventStore(path)
          const seen = yield* Effect.forkChild(Stream.runCollect(Stream.take(follower.follow(-1n), 2)))
          yield* Effect.sleep(50)
          yield* writer.append("elsewhere", [event(1), event(2)], "no_stream")
          expect((yield* Fiber.join(seen)).map((e) => e.streamId)).toEqual(["elsewhere", "elsewhere"])
        }),
      ),
    ),
  )
})

// --- the writer against a model ---------------------------------------------

const partArbitrary = fc.record({
  stream: fc.integer({ min: 0, max: 3 }),
  expected: fc.oneof(fc.constant("no_stream" as const), fc.constant("any" as const), fc.integer({ min: 0, max: 6 })),
  size: fc.integer({ min: 1, max: 3 }),
})

/** An append of one part (`append`) or of up to three streams at once (`appendMany`). */
const appendArbitrary = fc.uniqueArray(partArbitrary, { minLength: 1, maxLength: 3, selector: (part) => part.stream })

const outcomeOf = (outcome: Effect.Effect<ReadonlyArray<AppendResult>, unknown>) =>
  Exit.match(Effect.runSync(Effect.exit(outcome)), {
    onSuccess: (results) => ({ ok: results.map((result) => result.streamVersion) }),
    onFailure: (cause) => ({ failed: JSON.stringify(cause).includes("VersionConflict") ? "VersionConflict" : "other" }),
  })

describe("the group-commit writer", () => {
  test.prop([fc.array(fc.array(appendArbitrary, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 })], {
    numRuns: 60,
  })(
    "decides every append of a batch, of one stream or several, exactly as appending them one by one in queue order would",
    (batches) =>
      Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const path = yield* tempDatabasePath
            const db = openDatabase(path, "the event store", { synchronous: "normal", busyTimeoutMs: 100 })
            yield* Effect.addFinalizer(() => Effect.sync(() => db.close()))
            // "normal" never asks the log for a sync at commit, and this writer is never read through its durability.
            const logSync: LogSync = {
              startedSyncs: () => 0,
              afterSync: (_sync, done) => done(undefined),
              close: () => {},
            }
            const writer = makeGroupCommitWriter(db, {
              appendBatchMaxEvents: 1_000,
              streamVersionCacheMaxStreams: 2,
              path,
              // "normal" acknowledges at commit, so each flush settles its batch before it returns.
              durability: makeDurability("normal", logSync, path, () => 0),
              onAcknowledged: () => {},
              chaining: chained,
            })
            const model = makeMemoryEventStore()
            let n = 0
            for (const batch of batches) {
              const outcomes: Array<AppendOutcome> = []
              const expectedOutcomes = []
              for (const append of batch) {
                const parts = append.map(({ stream, expected, size }) => ({
                  streamId: `s-${stream}`,
                  expected,
                  events: Array.from({ length: size }, () => event(n++)),
                }))
                writer.submit({
                  parts: parts.map((part) => ({
                    ...part,
                    events: encodeEvents(part.events, chained.encode) as ReadonlyArray<EncodedEvent>,
                  })),
                  recordedAt: 0,
                  settle: (outcome) => outcomes.push(outcome),
                  cancelled: false,
                })
                // The memory store writes an appendMany all or none, as the writer must.
                expectedOutcomes.push(outcomeOf(model.appendMany(parts)))
              }
              writer.flush()
              expect(outcomes.map(outcomeOf)).toEqual(expectedOutcomes)
            }
            const rows = db.prepare("SELECT stream_id, stream_version, data FROM events ORDER BY global_position").all()
            const modelLog = yield* model.readAll({ after: -1n, maxCount: 1_000 })
            expect(rows.map((r) => [r.stream_id, r.stream_version, JSON.parse(r.data as string)])).toEqual(
              modelLog.map((e) => [e.streamId, e.streamVersion, e.data]),
            )
          }),
        ),
      ),
  )
})
