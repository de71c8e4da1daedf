import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { EventStore, type EventStoreShape, makeMemoryEventStore } from "@mizan/eventsourcing"
import { readWholeLog } from "@mizan/eventsourcing/testing"
import { makeSqliteEventStore } from "@mizan/store-sqlite"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { type GenerateOptions, generateDefaults, generateHistory } from "../src/index.ts"

const wholeLog = (store: EventStoreShape) => Effect.runPromise(readWholeLog(store))

const generatedLog = async (options: GenerateOptions) => {
  const store = makeMemoryEventStore()
  const history = await Effect.runPromise(Effect.provideService(generateHistory(options), EventStore, store))
  return { history, log: await wholeLog(store) }
}

describe("generateHistory", () => {
  it("writes the same history for the same seed: every event, id, time and position", async () => {
    const first = await generatedLog({ seed: 42, events: 800 })
    const second = await generatedLog({ seed: 42, events: 800 })
    expect(second.history).toEqual(first.history)
    expect(second.log).toEqual(first.log)
  })

  it("writes another history for another seed", async () => {
    const one = await generatedLog({ seed: 1, events: 300 })
    const two = await generatedLog({ seed: 2, events: 300 })
    expect(two.log.map((r) => r.data)).not.toEqual(one.log.map((r) => r.data))
  })

  it("stops once it has written about the number of events asked for", async () => {
    // (The sandbox members' accounts, 20 at least, open before the first story: the smallest history is that.)
    for (const events of [100, 250, 1_000]) {
      const { history, log } = await generatedLog({ seed: 3, events })
      expect(log.length).toBe(history.events)
      expect(history.events).toBeGreaterThanOrEqual(events)
      // One step of a story writes a handful of events at most (a refund ends in 3 appends).
      expect(history.events).toBeLessThan(events + 10)
    }
  })

  it("records every event at its simulated moment, from the start time on, never going back", async () => {
    const { history, log } = await generatedLog({ seed: 5, events: 1_000 })
    const times = log.map((r) => r.metadata.recordedAt)
    expect(times[0]).toBe(generateDefaults.startAt)
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!)
    expect(times.at(-1)).toBe(history.endedAt)
  })

  it("tells every kind of story: payments, settlements, partial refunds that succeed and fail, revokes, expiries and every transfer outcome", async () => {
    const { log } = await generatedLog({ seed: 9, events: 4_000 })
    const types = new Set(log.map((r) => r.type))
    for (const type of [
      "OrderCreated",
      "PaymentAttemptFailed",
      "OrderPaid",
      "OrderSettled",
      "OrderClosed",
      "OrderRevoked",
      "RefundReserved",
      "RefundConfirmed",
      "RefundReleased",
      "RefundCreated",
      "RefundSucceeded",
      "RefundFailed",
      "WalletTransferPlaced",
      "WalletTransferSucceeded",
      "WalletTransferFailed",
      "MemberAccountOpened",
      "MemberAccountCredited",
      "BankTransferSucceeded",
      "BankTransferFailed",
      "BankCardTransferSucceeded",
      "BankCardTransferDeclined",
      "BankCardTransferFailed",
      "BankCardTransferRefunded",
      "VamDepositReceived",
      "VamDepositSettled",
      "OrderNumberIssued",
    ])
      expect(types).toContain(type)
    const closeReasons = new Set(
      log.filter((r) => r.type === "OrderClosed").map((r) => (r.data as { failCode: string }).failCode),
    )
    expect(closeReasons).toEqual(new Set(["ORDER_EXPIRED", "ORDER_CANCELLED", "ORDER_REVOKED", "PAYMENT_FAILED"]))
  })

  it("keeps clear card numbers out of every event: only their digests and last 4 digits", async () => {
    const { log } = await generatedLog({ seed: 13, events: 2_000 })
    const cards = log.filter((r) => r.type === "BankCardTransferPlaced")
    expect(cards.length).toBeGreaterThan(0)
    for (const record of log) expect(JSON.stringify(record.data)).not.toMatch(/(?<![0-9])4[0-9]{15}(?![0-9])/)
    for (const card of cards) expect(card.data).toMatchObject({ cardNumber: expect.stringMatching(/^[0-9a-f]{64}$/) })
  })

  it("writes into any store: an SQLite file holds the same history as memory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mizan-histories-"))
    try {
      const { log } = await generatedLog({ seed: 21, events: 400 })
      const fromFile = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const store = yield* makeSqliteEventStore(join(dir, "h.db"), { synchronous: "normal" })
            yield* Effect.provideService(generateHistory({ seed: 21, events: 400 }), EventStore, store)
            return yield* Effect.promise(() => wholeLog(store))
          }),
        ),
      )
      expect(fromFile).toEqual(log)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
