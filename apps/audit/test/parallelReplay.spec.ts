/**
 * A replay split across workers by the hash of the stream id reports what one
 * replayer reports, finding for finding and line for line: the protocol over
 * random damaged histories with the parts in this process, and the command
 * line's `--workers` with real worker threads on a SQLite file.
 */
import { EventEmitter } from "node:events"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  EventStore,
  type EventStoreShape,
  logStart,
  makeMemoryEventStore,
  placeOnly,
  type RecordedEvent,
} from "@mizan/eventsourcing"
import { generateHistory } from "@mizan/histories"
import { Effect, Exit } from "effect"
import fc from "fast-check"
import { failureMessage } from "../src/common/stores.ts"
import {
  exitCodes,
  makeReplayer,
  type OrderNumberIssued,
  orderIndexStreamId,
  replayLog,
  type WorkerTiming,
} from "../src/index.ts"
import { registry } from "../src/model/registry.ts"
import { localPart, type PartWorker, replayInWorkers, reportOfParts, workerPart } from "../src/replay/parallelReplay.ts"
import type { ParentMessage } from "../src/replay/replayWorkerProtocol.ts"
import { workerOfStream } from "../src/replay/streamTable.ts"
import { cli } from "./support/cli.ts"
import { closeOrderTwice, damage, damagedLog } from "./support/damage.ts"
import { generatedLog } from "./support/histories.ts"
import { tempFolder, withSqliteStore } from "./support/stores.ts"

const listedMax = 5

const oneReplayer = (log: ReadonlyArray<RecordedEvent>) => {
  const replayer = makeReplayer({ states: "compact", findingsListedMax: listedMax })
  for (const record of log) replayer.apply(record)
  return replayer.report()
}

const inParts = (log: ReadonlyArray<RecordedEvent>, count: number) => {
  const replayers = Array.from({ length: count }, (_, index) =>
    makeReplayer({ states: "compact", findingsListedMax: listedMax, partition: { index, count } }),
  )
  for (const record of log) for (const replayer of replayers) replayer.apply(record)
  return reportOfParts(
    replayers.map(localPart),
    registry.map((entry) => entry.kind),
    listedMax,
  )
}

/**
 * A store serving `log` (positions 1..n), as every adapter serves a read's
 * `wholeEventsOf`: the events of the streams it refuses as their places alone.
 */
const storeOfLog = (log: ReadonlyArray<RecordedEvent>): EventStoreShape => ({
  ...makeMemoryEventStore(),
  readAll: ({ after, maxCount, wholeEventsOf }) =>
    Effect.sync(() =>
      log
        .slice(Number(after < 0n ? 0n : after), Number(after < 0n ? 0n : after) + maxCount)
        .map((record) => (wholeEventsOf === undefined || wholeEventsOf(record.streamId) ? record : placeOnly(record))),
    ),
})

/** The parts as the workers replay them: each reads the log with only its own streams' events whole. */
const inPartsReadFromStore = (log: ReadonlyArray<RecordedEvent>, count: number) =>
  Effect.gen(function* () {
    const replayers = yield* Effect.forEach(
      Array.from({ length: count }, (_, index) => index),
      (index) =>
        replayLog({ states: "compact", findingsListedMax: listedMax, partition: { index, count }, pageSizeEvents: 7 }),
    )
    return yield* Effect.promise(() =>
      reportOfParts(
        replayers.map(localPart),
        registry.map((entry) => entry.kind),
        listedMax,
      ),
    )
  }).pipe(Effect.provideService(EventStore, storeOfLog(log)))

describe("a replay in parts", () => {
  it("reports what one replayer reports, over damaged generated histories, in 2 or 3 parts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(damage, { maxLength: 20 }),
        fc.constantFrom(2, 3),
        // fast-check drives this loop: each run is one effect, run to a promise.
        (seed, damages, count) =>
          Effect.runPromise(
            Effect.gen(function* () {
              // Positions 1..n again, as a store serves them, once the damage has moved events.
              const log = damagedLog(yield* generatedLog(seed, 500), damages).map((record, i) => ({
                ...record,
                globalPosition: BigInt(i + 1),
              }))
              const single = oneReplayer(log)
              // The parts answer through the worker protocol's promises, as worker threads would.
              expect(yield* Effect.promise(() => inParts(log, count))).toEqual(single)
              // And so do parts that read the other parts' events as their places alone (wholeEventsOf).
              expect(yield* inPartsReadFromStore(log, count)).toEqual(single)
            }),
          ),
      ),
      { numRuns: 10 },
    )
  })
})

describe("a part's questions to the other parts", () => {
  const count = 2
  /** The first id `idOf(i)` gives that hashes to `part`. */
  const idIn = (part: number, idOf: (i: number) => string, from = 0) => {
    for (let i = from; ; i++) if (workerOfStream(idOf(i), count) === part) return idOf(i)
  }

  /**
   * A log of one stream, `fillers` appends of other streams its part holds,
   * then an order-number index naming that stream, held by the other part;
   * and what the index's part asks the other parts about.
   */
  const askedAbout = (fillers: number) =>
    Effect.gen(function* () {
      const store = makeMemoryEventStore()
      const named = idIn(1, (i) => `acquiring-5-M0001-NAMED-${i}`)
      const orderNo = idIn(0, (i) => orderIndexStreamId("M0001", `NO-${i}`)).slice(
        orderIndexStreamId("M0001", "").length,
      )
      const event = { type: "Noted", schemaVersion: 1, data: {} }
      yield* store.append(named, [event], "no_stream")
      for (let i = 0; i < fillers; i++)
        yield* store.append(
          idIn(1, (j) => `filler-${j}`, i * 1_000),
          [event],
          "no_stream",
        )
      const issued: Omit<OrderNumberIssued, "_tag"> = { orderNo, kind: "acquiring", streamId: named }
      yield* store.append(
        orderIndexStreamId("M0001", orderNo),
        [{ type: "OrderNumberIssued", schemaVersion: 1, data: issued }],
        "no_stream",
      )
      const log = yield* store.readAll({ after: logStart, maxCount: 1_000 })
      const parts = [0, 1].map((index) => makeReplayer({ states: "compact", partition: { index, count } }))
      for (const record of log) for (const part of parts) part.apply(record)
      // The index's part answers as one replayer would, whatever it asked.
      const single = oneReplayer(log)
      expect(yield* Effect.promise(() => inParts(log, count))).toEqual(single)
      expect(single.brokenInvariants.total).toBe(0)
      return { named, asked: parts[0]!.wanted() }
    })

  it.effect("asks nothing about the stream an index names when that stream was read shortly before the index", () =>
    Effect.gen(function* () {
      expect((yield* askedAbout(3)).asked).toEqual([])
    }),
  )

  it.effect("asks about it when it was read long before, as about a stream it never read", () =>
    Effect.gen(function* () {
      const { named, asked } = yield* askedAbout(40)
      expect(asked).toEqual([named])
    }),
  )
})

describe("replay --workers", () => {
  const folder = tempFolder()
  const damagedPath = join(folder.dir, "damaged.db")

  beforeAll(async () => {
    await withSqliteStore(damagedPath, generateHistory({ seed: 23, events: 800 }))
    await withSqliteStore(
      damagedPath,
      Effect.gen(function* () {
        const store = yield* EventStore
        const log = yield* store.readAll({ after: logStart, maxCount: 1_000_000 })
        const acquiring = log.filter((r) => r.streamId.startsWith("acquiring-") && r.streamVersion === 2)
        for (const record of acquiring.slice(0, 3)) yield* closeOrderTwice(record.streamId)
        const issued: OrderNumberIssued = {
          _tag: "OrderNumberIssued",
          orderNo: "NO-STREAM-1",
          kind: "acquiring",
          streamId: "acquiring-5-M0009-NOWHERE",
        }
        yield* store.append(
          orderIndexStreamId("M0009", "NO-STREAM-1"),
          [
            {
              type: "OrderNumberIssued",
              schemaVersion: 1,
              data: { orderNo: issued.orderNo, kind: issued.kind, streamId: issued.streamId },
            },
          ],
          "no_stream",
        )
      }),
    )
    // Rows whose JSON no longer parses, of streams either worker may hold: each worker reports its own and reads on.
    const db = new DatabaseSync(damagedPath)
    db.exec("UPDATE events SET data = '{\"amountFils\": ' WHERE global_position IN (10, 11, 12, 400)")
    db.exec("UPDATE events SET metadata = '{' WHERE global_position = 401")
    db.close()
  })

  afterAll(() => folder.cleanup())

  it("on two worker threads writes the report of one, as text and as JSON, broken findings and all", async () => {
    const store = `sqlite:${damagedPath}`
    const withoutTime = (text: string) => text.replace(/ in [0-9.]+ s \([0-9,]+ events\/s\)/, "")
    const one = await cli(["replay", "--store", store])
    const two = await cli(["replay", "--workers", "2", "--store", store])
    expect(one.code).toBe(exitCodes.broken)
    expect(two.code).toBe(exitCodes.broken)
    expect(withoutTime(two.stdout)).toBe(withoutTime(one.stdout))
    expect(one.stdout).toContain("names acquiring-5-M0009-NOWHERE, which holds no event")
    expect(one.stdout.match(/: the store cannot read it: its stored (data|metadata) is not JSON\n/g)).toHaveLength(5)
    const { elapsedMs: _, ...oneJson } = JSON.parse((await cli(["replay", "--json", "--store", store])).stdout)
    const { elapsedMs: __, ...twoJson } = JSON.parse(
      (await cli(["replay", "--json", "--workers", "2", "--store", store])).stdout,
    )
    expect(twoJson).toEqual(oneJson)
  })

  // Live: the workers are threads that run on real time.
  it.live("says where each worker's time went until it had read the log", () =>
    Effect.gen(function* () {
      const startedMs = performance.now()
      let timings: ReadonlyArray<WorkerTiming> = []
      yield* replayInWorkers({
        store: { _tag: "Sqlite", path: damagedPath },
        workers: 2,
        onWorkersRead: (read) => {
          timings = read
        },
      })
      const elapsedMs = performance.now() - startedMs
      expect(timings).toHaveLength(2)
      for (const { startMs, readMs, cpuMs } of timings) {
        expect(startMs).toBeGreaterThan(0)
        expect(readMs).toBeGreaterThan(0)
        expect(startMs + readMs).toBeLessThanOrEqual(elapsedMs)
        // The thread's own CPU: its start-up and its read, on one core at most.
        expect(cpuMs).toBeGreaterThan(0)
        expect(cpuMs).toBeLessThanOrEqual(startMs + readMs + 1)
      }
    }),
  )

  it("refuses a number of workers that is not a whole number above 0, with 2", async () => {
    const run = await cli(["replay", "--workers", "0", "--store", `sqlite:${damagedPath}`])
    expect(run.code).toBe(exitCodes.failed)
    expect(run.stderr).toContain('--workers must be a whole number above 0, not "0"')
  })

  // Live: the workers are threads that run on real time.
  it.live("fails with the store's words when a worker cannot open the store, and ends its workers", () =>
    Effect.gen(function* () {
      const missing = join(folder.dir, "missing.db")
      const exit = yield* Effect.exit(replayInWorkers({ store: { _tag: "Sqlite", path: missing }, workers: 2 }))
      if (!Exit.isFailure(exit)) throw new Error("the replay of a missing store succeeded")
      expect(failureMessage({ _tag: "Sqlite", path: missing }, exit.cause)).toContain("does not exist")
    }),
  )
})

describe("a worker thread's part", () => {
  /** A stand-in worker: it keeps the questions asked, and the test answers or ends it. */
  const standIn = () => {
    const asked: Array<ParentMessage> = []
    const worker = Object.assign(new EventEmitter(), { postMessage: (message: ParentMessage) => asked.push(message) })
    return { worker, asked, part: workerPart(worker as unknown as PartWorker) }
  }

  it("answers a question with what the worker answers", async () => {
    const { worker, asked, part } = standIn()
    const wanted = part.wanted()
    worker.emit("message", { _tag: "Answer", id: asked[0]!.id, value: ["s-1"] })
    expect(await wanted).toEqual(["s-1"])
  })

  it("fails a question the worker could not answer, and every question still open once the worker ends", async () => {
    const { worker, asked, part } = standIn()
    const wanted = part.wanted()
    worker.emit("message", { _tag: "AnswerFailed", id: asked[0]!.id, detail: "heap out of memory" })
    await expect(wanted).rejects.toMatchObject({ detail: "a replay worker could not answer: heap out of memory" })
    const facts = part.factsOf(["s-1"])
    const report = part.part()
    worker.emit("exit", 134)
    await expect(facts).rejects.toThrow("exit code 134")
    await expect(report).rejects.toThrow("exit code 134")
  })
})
