/**
 * The tamper-evident log's part of the EventStore contract
 * (docs/architecture.md#a-tamper-evident-log): every adapter that keeps a
 * chain hashes each event over its stream's previous hash with `chainHashOf`
 * as it records it, and keeps signed heads apart from the log.
 */
import { Effect, type Scope } from "effect"
import { describe, expect, it } from "vitest"
import { chainGenesis, chainHashOf, type SignedHead } from "../chain/chain.ts"
import type { NewEvent, RecordedEvent } from "../events.ts"
import { readWholeLog } from "./readWholeLog.ts"
import type { StoreUnderTest } from "./storeUnderTest.ts"

const event = (n: number, extra: Partial<NewEvent> = {}): NewEvent => ({
  type: "Happened",
  schemaVersion: 1,
  // Keys out of order, integer-like keys and text that JSON escapes: the hash must not depend on how the store keeps them.
  data: { z: n, a: [n, { y: null, b: '«ü» \u2028 "quoted"' }], "10": true, "2": 0.1 },
  ...extra,
})

/** Every stream of `records` recomputed from its genesis: the hashes the store should have given. */
export const expectChained = (records: ReadonlyArray<RecordedEvent>) => {
  const previous = new Map<string, string>()
  for (const record of records) {
    expect(record.chainHash, `${record.streamId} v${record.streamVersion} has a chain hash`).toMatch(/^[0-9a-f]{64}$/)
    const expected = chainHashOf(previous.get(record.streamId) ?? chainGenesis, record)
    expect(record.chainHash, `${record.streamId} v${record.streamVersion}`).toBe(expected)
    previous.set(record.streamId, record.chainHash!)
  }
}

const head = (count: number, signedAt = 1_767_225_600_000): SignedHead => ({
  count,
  lastEventId: `event-${count}`,
  digest: count.toString(16).padStart(64, "0"),
  signedAt,
  signature: `c2lnbmF0dXJl${count}`,
  position: BigInt(count * 10),
})

export const chainContract = (
  adapter: string,
  run: <A>(body: (sut: StoreUnderTest) => Effect.Effect<A, unknown, Scope.Scope>) => Promise<A>,
  options: { readonly volatile?: boolean; readonly timeout: number },
) => {
  const { timeout } = options
  describe(`EventStore chain contract: ${adapter}`, () => {
    it(
      "chains every event to its stream's previous one, in appends of one and of many, as read and as acknowledged",
      { timeout },
      () =>
        run(({ store }) =>
          Effect.gen(function* () {
            const acknowledged: Array<RecordedEvent> = []
            acknowledged.push(...(yield* store.append("a", [event(1), event(2)], "no_stream")).records)
            acknowledged.push(
              ...(yield* store.append("b", [event(3, { metadata: { correlationId: "c-1" } })], "no_stream")).records,
            )
            acknowledged.push(...(yield* store.append("a", [event(4)], 2)).records)
            acknowledged.push(...(yield* store.append("b", [event(5), event(6), event(7)], "any")).records)
            expectChained(acknowledged)
            const log = yield* readWholeLog(store, 2)
            expectChained(log)
            expect(log.map((e) => e.chainHash)).toEqual(acknowledged.map((e) => e.chainHash))
            expect((yield* store.readStream("a")).map((e) => e.chainHash)).toEqual(
              acknowledged.filter((e) => e.streamId === "a").map((e) => e.chainHash),
            )
          }),
        ),
    )

    it("covers the recorded time: the hash of the record with its time a millisecond later differs", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          const [record] = (yield* store.append("s", [event(1)], "no_stream")).records
          const { recordedAt } = record!.metadata
          expect(chainHashOf(chainGenesis, record!)).toBe(record!.chainHash)
          expect(chainHashOf(chainGenesis, { ...record!, metadata: { recordedAt: recordedAt + 1 } })).not.toBe(
            record!.chainHash,
          )
        }),
      ),
    )

    it("keeps one chain per stream when many appends to a few streams interleave", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          yield* Effect.all(
            Array.from({ length: 40 }, (_, i) => store.append(`s-${i % 3}`, [event(i), event(i + 100)], "any")),
            { concurrency: "unbounded" },
          )
          const log = yield* readWholeLog(store, 7)
          expect(log).toHaveLength(80)
          expectChained(log)
        }),
      ),
    )

    it("keeps signed heads apart from the log, by count, the first of a repeated count kept", { timeout }, () =>
      run(({ store }) =>
        Effect.gen(function* () {
          expect(yield* store.readLastSignedHead).toBeUndefined()
          for (const count of [3, 1, 7, 5]) yield* store.storeSignedHead(head(count))
          yield* store.storeSignedHead(head(5, 1_767_225_699_999))
          expect(yield* store.readLastSignedHead).toEqual(head(7))
          expect(yield* store.readSignedHeads({ afterCount: 0, maxCount: 10 })).toEqual(
            [1, 3, 5, 7].map((n) => head(n)),
          )
          expect(yield* store.readSignedHeads({ afterCount: 1, maxCount: 2 })).toEqual([head(3), head(5)])
          expect(yield* readWholeLog(store)).toEqual([])
        }),
      ),
    )

    if (options.volatile === true) return
    it("continues each stream's chain and keeps the signed heads after a close and reopen", { timeout }, () =>
      run((sut) =>
        Effect.gen(function* () {
          if (sut.reopen === undefined) throw new Error(`${adapter} is durable but its test gives no reopen`)
          yield* sut.store.append("s", [event(1), event(2)], "no_stream")
          yield* sut.store.storeSignedHead(head(2))
          const reopened = yield* sut.reopen()
          yield* reopened.append("s", [event(3)], 2)
          yield* reopened.append("t", [event(4)], "any")
          yield* reopened.append("s", [event(5)], "any")
          expectChained(yield* readWholeLog(reopened))
          expect(yield* reopened.readLastSignedHead).toEqual(head(2))
        }),
      ),
    )
  })
}
