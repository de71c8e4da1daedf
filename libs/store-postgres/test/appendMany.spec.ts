/**
 * An appendMany on PostgreSQL is one transaction: these tests look at what
 * the contract suite cannot see from outside, its positions, its locks, its
 * retries and the heads it remembers.
 */
import { describe, expect, it } from "@effect/vitest"
import type { AppendResult, ExpectedVersion } from "@mizan/eventsourcing"
import { expectChained, readWholeLog } from "@mizan/eventsourcing/testing"
import { Effect, Exit } from "effect"
import { transactionOf } from "../src/globalPosition.ts"
import { appendBatchMaxEvents } from "../src/index.ts"
import { freshSchema, openStore } from "./support.ts"

const events = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({ type: "Happened", schemaVersion: 1, data: { n: from + i } }))

const positionsOf = (results: ReadonlyArray<AppendResult>) =>
  results.flatMap((result) => result.records.map((record) => record.globalPosition))

/** Each position one after the one before: the events of one transaction, none between them. */
const expectConsecutive = (positions: ReadonlyArray<bigint>) =>
  expect(positions.map((position) => position - positions[0]!)).toEqual(positions.map((_, i) => BigInt(i)))

describe("postgres appendMany", () => {
  it.effect("places the parts' events at consecutive positions of one transaction, in the parts' order", () =>
    Effect.gen(function* () {
      const store = yield* openStore(freshSchema())
      yield* store.append("alpha", events(1), "no_stream")
      // Not in stream id order, which is the order the parts claim their streams in.
      const results = yield* store.appendMany([
        { streamId: "zeta", events: events(2), expected: "no_stream" },
        { streamId: "alpha", events: events(3), expected: 1 },
        { streamId: "mid", events: events(1), expected: "any" },
      ])
      const positions = positionsOf(results)
      expectConsecutive(positions)
      expect(new Set(positions.map(transactionOf)).size).toBe(1)
      const log = (yield* readWholeLog(store, 100)).slice(1)
      expect(log.map((e) => [e.streamId, e.streamVersion])).toEqual([
        ["zeta", 1],
        ["zeta", 2],
        ["alpha", 2],
        ["alpha", 3],
        ["alpha", 4],
        ["mid", 1],
      ])
      expect(log.map((e) => e.globalPosition)).toEqual(positions)
    }),
  )

  it.effect("serializes concurrent appendManys that share streams, named in opposite orders, without deadlocking", () =>
    Effect.gen(function* () {
      const store = yield* openStore(freshSchema())
      const pairs = 8
      const both = (first: string, second: string, n: number) =>
        store.appendMany([
          { streamId: first, events: events(2, n), expected: "any" },
          { streamId: second, events: events(1, n), expected: "any" },
        ])
      const results = yield* Effect.all(
        Array.from({ length: pairs }, (_, i) => [
          both("left", "right", i * 10),
          both("right", "left", i * 10 + 5),
        ]).flat(),
        { concurrency: "unbounded" },
      )
      for (const result of results) expectConsecutive(positionsOf(result))
      for (const streamId of ["left", "right"]) {
        const stream = yield* store.readStream(streamId)
        expect(stream.map((e) => e.streamVersion)).toEqual(stream.map((_, i) => i + 1))
        expect(stream).toHaveLength(pairs * 3)
      }
      const log = yield* readWholeLog(store, 1_000)
      expect(log).toHaveLength(pairs * 2 * 3)
      expectChained(log)
    }),
  )

  it.effect(
    "lets one of many concurrent appendManys claiming one stream at one version win, the others write nothing",
    () =>
      Effect.gen(function* () {
        const store = yield* openStore(freshSchema())
        const writers = 8
        const exits = yield* Effect.all(
          Array.from({ length: writers }, (_, i) =>
            Effect.exit(
              store.appendMany([
                { streamId: `own-${i}`, events: events(1), expected: "no_stream" },
                { streamId: "shared", events: events(2), expected: "no_stream" },
              ]),
            ),
          ),
          { concurrency: "unbounded" },
        )
        expect(exits.filter(Exit.isSuccess)).toHaveLength(1)
        const winner = exits.findIndex(Exit.isSuccess)
        for (const exit of exits.filter(Exit.isFailure))
          expect(JSON.stringify(exit.cause)).toMatch(/VersionConflict.*shared/)
        for (let i = 0; i < writers; i++)
          expect((yield* store.readStream(`own-${i}`)).length).toBe(i === winner ? 1 : 0)
        expect((yield* store.readStream("shared")).length).toBe(2)
      }),
  )

  it.effect('builds an "any" part again on its stream\'s new head when another process moved the stream', () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      const store = yield* openStore(schema)
      const other = yield* openStore(schema)
      yield* store.append("moved", events(1), "no_stream")
      // This process remembers "moved" at version 1; the other takes version 2.
      yield* other.append("moved", events(1, 1), 1)
      const [fresh, moved] = yield* store.appendMany([
        { streamId: "fresh", events: events(1, 2), expected: "no_stream" },
        { streamId: "moved", events: events(1, 3), expected: "any" },
      ])
      expect([fresh!.streamVersion, moved!.streamVersion]).toEqual([1, 3])
      expectChained(yield* readWholeLog(store, 100))
    }),
  )

  it.effect("remembers no head of a part rolled back: the next append chains on what was committed", () =>
    Effect.gen(function* () {
      const schema = freshSchema()
      // One connection: a transaction that kept it after rolling back would leave the later appends waiting.
      const store = yield* openStore(schema, { poolSizeConnections: 1 })
      const other = yield* openStore(schema)
      yield* store.append("kept", events(1), "no_stream")
      yield* store.append("taken", events(1), "no_stream")
      // "kept" is written first, then rolled back when "taken" loses.
      for (const expected of ["no_stream", 0] satisfies Array<ExpectedVersion>) {
        const conflict = yield* Effect.flip(
          store.appendMany([
            { streamId: "kept", events: events(1, 2), expected: 1 },
            { streamId: "taken", events: events(1, 1), expected },
          ]),
        )
        expect(conflict).toMatchObject({ _tag: "VersionConflict", streamId: "taken", actual: 1 })
      }
      // Read by the other store: a read by this one would remember the head it reads.
      expect((yield* other.readStream("kept")).length).toBe(1)
      // Version 2 of "kept" becomes another event than the one rolled back; this store then appends after it.
      yield* other.append("kept", events(1, 3), 1)
      yield* store.append("kept", events(1, 4), 2)
      expectChained(yield* other.readStream("kept"))
    }),
  )

  it.effect(`refuses an appendMany of more than ${appendBatchMaxEvents} events in all, writing nothing`, () =>
    Effect.gen(function* () {
      const store = yield* openStore(freshSchema())
      const half = Math.ceil(appendBatchMaxEvents / 2)
      const error = yield* Effect.flip(
        store.appendMany([
          { streamId: "a", events: events(half), expected: "no_stream" },
          { streamId: "b", events: events(appendBatchMaxEvents + 1 - half), expected: "no_stream" },
        ]),
      )
      expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
      expect(yield* readWholeLog(store, 10)).toEqual([])
    }),
  )
})
