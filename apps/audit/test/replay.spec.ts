/**
 * The replay on damaged histories: each kind of damage is reported with the
 * stream, version and global position where it happened, and the rule. The
 * histories are generated through the real deciders (tools/histories), then
 * damaged by appending what no decider would decide.
 */

import { beforeAll, describe, expect, it } from "@effect/vitest"
import { AcquiringOrder } from "@mizan/acquiring"
import {
  EventStore,
  type EventStoreShape,
  logStart,
  makeMemoryEventStore,
  type NewEvent,
  type RecordedEvent,
} from "@mizan/eventsourcing"
import { fils, timestamp } from "@mizan/kernel"
import { testClockStreamId } from "@mizan/test-clock"
import { WalletTransfer } from "@mizan/transfer"
import { Clock, Effect } from "effect"
import {
  evolveRule,
  fixedClock,
  isClean,
  makeReplayer,
  orderIndexRules,
  orderIndexStreamId,
  refundReservationRule,
  replayLog,
  timeRule,
} from "../src/index.ts"
import { type GeneratedStore, generatedStore } from "./support/histories.ts"

/** The replay of `store` (an Effect: the tests run as effects). */
const replayOf = (store: EventStoreShape) => Effect.provideService(replayLog(), EventStore, store)

/** A copy of a generated store, so that each test damages its own; `edit` changes events on the way, as a hand in the store would. */
const copyOf = (source: EventStoreShape, edit: (record: RecordedEvent) => RecordedEvent = (record) => record) =>
  Effect.gen(function* () {
    const copy = makeMemoryEventStore()
    const page = yield* source.readAll({ after: logStart, maxCount: 1_000_000 })
    // Each event keeps its recorded time: the replay tells an append's events by it, and
    // one decision of two events (placed, then failed at once) must stay one append.
    for (const r of page.map(edit))
      yield* copy
        .append(
          r.streamId,
          [{ id: r.id, type: r.type, schemaVersion: r.schemaVersion, data: r.data }],
          r.streamVersion - 1,
        )
        .pipe(Effect.provideService(Clock.Clock, fixedClock(r.metadata.recordedAt)))
    return copy
  })

/** The first refund order of the history that succeeded, with a payee part above a dirham to edit. */
const succeededRefund = (store: EventStoreShape) =>
  Effect.gen(function* () {
    const replayer = yield* replayOf(store)
    for (const tracked of replayer.streams.values()) {
      const state = tracked.state as { status?: string; orderNo?: string; details?: { payeeRefundFils: number } }
      if (tracked.aggregate?.kind === "refund" && state.status === "SUCCESS" && state.details!.payeeRefundFils > 100)
        return { streamId: tracked.streamId, orderNo: state.orderNo! }
    }
    throw new Error("no succeeded refund in the generated history")
  })

type Data = Record<string, unknown>

/** Moves an amount and its payee part by the same number of fils, so that the parts still sum to the whole. */
const moved = (byFils: number, amount: Data, payee: Data, amountKey: string, payeeKey: string) => {
  amount[amountKey] = (amount[amountKey] as number) + byFils
  payee[payeeKey] = (payee[payeeKey] as number) + byFils
}

/** Appends events as they are, at the end of the stream; answers their records. */
const appendRaw = (store: EventStoreShape, streamId: string, events: ReadonlyArray<NewEvent>) =>
  Effect.gen(function* () {
    const existing = yield* store.readStream(streamId)
    const appended = yield* store.append(streamId, events, existing.length === 0 ? "no_stream" : existing.length)
    return appended.records
  })

/** Appends acquiring events no decider decided. */
const appendTo = (store: EventStoreShape, streamId: string, events: ReadonlyArray<AcquiringOrder.Event>) =>
  appendRaw(store, streamId, events.map(AcquiringOrder.aggregate.codec.encode))

/** The first order of the history (in stream id order) that `pick` accepts, and its stream. */
const orderWhere = (store: EventStoreShape, pick: (order: AcquiringOrder.Order) => boolean) =>
  Effect.gen(function* () {
    const replayer = yield* replayOf(store)
    for (const tracked of replayer.streams.values())
      if (
        tracked.aggregate?.kind === "acquiring" &&
        AcquiringOrder.isOrder(tracked.state as AcquiringOrder.Order) &&
        pick(tracked.state as AcquiringOrder.Order)
      )
        return { streamId: tracked.streamId, order: tracked.state as AcquiringOrder.Order, version: tracked.version }
    throw new Error("no such order in the generated history")
  })

const paidAndRefundable = (order: AcquiringOrder.Order) =>
  (order.status === "PAID_SUCCESS" || order.status === "SETTLED") && !order.revoked && order.refunds.length === 0

let generated: GeneratedStore

beforeAll(async () => {
  generated = await Effect.runPromise(generatedStore(7, 1_500))
})

describe("a generated history", () => {
  it.effect("replays with nothing broken before it is damaged", () =>
    Effect.gen(function* () {
      const report = (yield* replayOf(generated.store)).report()
      expect(isClean(report)).toBe(true)
      expect(report.events).toBe(generated.history.events)
    }),
  )
})

// The damage is appended now, on the real clock, after the generated history's recorded times, as a
// hand in the store would append it (on the TestClock's 1970 it would also break the recorded-time rule).
describe("a damaged history", () => {
  it.live("reports a refund above the paid amount at the stream, version and position of the event that made it", () =>
    Effect.gen(function* () {
      const store = yield* copyOf(generated.store)
      const { streamId, order, version } = yield* orderWhere(store, paidAndRefundable)
      const paid = AcquiringOrder.paymentOf(order)!.paidAmountFils
      const [record] = yield* appendTo(store, streamId, [
        {
          _tag: "RefundReserved",
          refundOrderNo: "HAND-1",
          cause: "REQUEST",
          request: { refundMerchantOrderNo: "HAND-1", amountFils: fils(paid + 1) },
          allocation: { payeeFils: fils(paid + 1), feeFils: fils(0), sharing: [] },
          reservedAt: timestamp(order.createdAt + 1),
        },
      ])
      const report = (yield* replayOf(store)).report()
      expect(isClean(report)).toBe(false)
      expect(report.brokenInvariants.listed).toContainEqual(
        expect.objectContaining({
          kind: "acquiring",
          streamId,
          streamVersion: version + 1,
          globalPosition: record!.globalPosition,
          rule: AcquiringOrder.rules.refundsWithinPaid,
        }),
      )
    }),
  )

  it.live("reports an event that does not fit its order's status as a broken transition", () =>
    Effect.gen(function* () {
      const store = yield* copyOf(generated.store)
      const { streamId, version } = yield* orderWhere(store, (o) => o.status === "FAILURE" && !o.revoked)
      const [record] = yield* appendTo(store, streamId, [{ _tag: "OrderSettled", settledAt: timestamp(1) }])
      const report = (yield* replayOf(store)).report()
      expect(report.brokenInvariants.listed).toEqual([
        {
          kind: "acquiring",
          streamId,
          streamVersion: version + 1,
          globalPosition: record!.globalPosition,
          rule: AcquiringOrder.rules.transitions,
          detail: "OrderSettled on a FAILURE order",
        },
      ])
    }),
  )

  it.live("reports a broken rule once, when it breaks, and not again while it stays broken", () =>
    Effect.gen(function* () {
      const store = yield* copyOf(generated.store)
      const { streamId, order } = yield* orderWhere(store, paidAndRefundable)
      const paid = AcquiringOrder.paymentOf(order)!.paidAmountFils
      yield* appendTo(store, streamId, [
        {
          _tag: "RefundReserved",
          refundOrderNo: "HAND-2",
          cause: "REQUEST",
          request: { refundMerchantOrderNo: "HAND-2", amountFils: fils(paid + 5) },
          allocation: { payeeFils: fils(paid + 5), feeFils: fils(0), sharing: [] },
          reservedAt: timestamp(order.createdAt + 1),
        },
      ])
      yield* appendTo(store, streamId, [
        { _tag: "OrderClosed", failCode: "ORDER_EXPIRED", failDes: "", closedAt: timestamp(2) },
      ])
      const rulesReported = (yield* replayOf(store)).report().brokenInvariants.listed.map((b) => b.rule)
      expect(rulesReported.filter((r) => r === AcquiringOrder.rules.refundsWithinPaid)).toHaveLength(1)
      expect(rulesReported).toContain(AcquiringOrder.rules.transitions)
    }),
  )

  it.effect("reports a refund order edited in its own stream, parts still summing, once, at the refund stream", () =>
    Effect.gen(function* () {
      const { streamId, orderNo } = yield* succeededRefund(generated.store)
      const store = yield* copyOf(generated.store, (record) => {
        if (record.streamId !== streamId || record.type !== "RefundCreated") return record
        const data = structuredClone(record.data) as { details: Data }
        moved(-100, data.details, data.details, "amountFils", "payeeRefundFils")
        return { ...record, data }
      })
      const found = (yield* replayOf(store)).report().brokenInvariants.listed
      expect(found).toEqual([
        expect.objectContaining({
          kind: "refund",
          streamId,
          rule: refundReservationRule,
          detail: expect.stringContaining(`refund order ${orderNo} against its reservation`),
        }),
      ])
      expect(found[0]!.detail).toContain("amount")
    }),
  )

  it.effect("reports a reservation edited on the acquiring order once per stream and rule while it stays broken", () =>
    Effect.gen(function* () {
      const { orderNo } = yield* succeededRefund(generated.store)
      const store = yield* copyOf(generated.store, (record) => {
        const data = record.data as { refundOrderNo?: string }
        if (record.type !== "RefundReserved" || data.refundOrderNo !== orderNo) return record
        const edited = structuredClone(record.data) as { request: Data; allocation: Data }
        // Far above what the payee received: the acquiring order's own rules break too, and stay broken.
        moved(100_000_000, edited.request, edited.allocation, "amountFils", "payeeFils")
        return { ...record, data: edited }
      })
      const found = (yield* replayOf(store)).report().brokenInvariants.listed
      const perStreamAndRule = found.map((b) => `${b.streamId} ${b.rule}`)
      expect(new Set(perStreamAndRule).size).toBe(perStreamAndRule.length)
      expect(found).toContainEqual(expect.objectContaining({ kind: "refund", rule: refundReservationRule }))
    }),
  )

  it.live("reports an event whose data does not decode, with why, and goes on with the rest", () =>
    Effect.gen(function* () {
      const store = yield* copyOf(generated.store)
      const { streamId, version } = yield* orderWhere(store, (o) => o.status === "CREATED" || o.status === "FAILURE")
      yield* appendRaw(store, streamId, [{ type: "OrderSettled", schemaVersion: 1, data: { settledAt: "yesterday" } }])
      const report = (yield* replayOf(store)).report()
      expect(report.undecodable.listed).toEqual([
        expect.objectContaining({
          streamId,
          streamVersion: version + 1,
          type: "OrderSettled",
          reason: expect.stringContaining("settledAt"),
        }),
      ])
      expect(report.events).toBe(generated.history.events + 1)
    }),
  )

  it.live("reports every event of a stream no aggregate owns as undecodable", () =>
    Effect.gen(function* () {
      const store = yield* copyOf(generated.store)
      const happened = { type: "Happened", schemaVersion: 1, data: {} }
      yield* appendRaw(store, "mystery-1", [happened, happened])
      const report = (yield* replayOf(store)).report()
      expect(report.undecodable.listed.map((u) => [u.streamId, u.streamVersion])).toEqual([
        ["mystery-1", 1],
        ["mystery-1", 2],
      ])
      expect(report.counts.find((c) => c.kind === "unknown")?.streams).toBe(1)
    }),
  )

  it.live("reports an order number whose index names a stream the log does not hold", () =>
    Effect.gen(function* () {
      const store = yield* copyOf(generated.store)
      const indexId = orderIndexStreamId("M0001", "20260101000000199999999999")
      yield* appendRaw(store, indexId, [
        {
          type: "OrderNumberIssued",
          schemaVersion: 1,
          data: { orderNo: "20260101000000199999999999", kind: "acquiring", streamId: "acquiring-5-M0001-NOWHERE" },
        },
      ])
      const report = (yield* replayOf(store)).report()
      expect(report.brokenInvariants.listed).toEqual([
        expect.objectContaining({
          kind: "orderIndex",
          streamId: indexId,
          streamVersion: 1,
          rule: orderIndexRules.namesExistingStream,
        }),
      ])
    }),
  )

  it.live(
    "checks an index retired before the stream it names is written, in a compact replay, against the whole log",
    () =>
      Effect.gen(function* () {
        const store = yield* copyOf(generated.store)
        const issued = (orderNo: string, streamId: string) => ({
          type: "OrderNumberIssued",
          schemaVersion: 1,
          data: { orderNo, kind: "acquiring", streamId },
        })
        const before = orderIndexStreamId("M0001", "20260101000000199999999998")
        const nowhere = orderIndexStreamId("M0001", "20260101000000199999999999")
        yield* appendRaw(store, before, [issued("20260101000000199999999998", "acquiring-5-M0001-LATER")])
        yield* appendRaw(store, nowhere, [issued("20260101000000199999999999", "acquiring-5-M0001-NOWHERE")])
        yield* appendRaw(store, "acquiring-5-M0001-LATER", [{ type: "Happened", schemaVersion: 1, data: {} }])
        const replayer = yield* Effect.provideService(replayLog({ states: "compact" }), EventStore, store)
        expect(replayer.streams.isRetired(before)).toBe(true)
        expect(
          replayer
            .report()
            .brokenInvariants.listed.filter((finding) => finding.kind === "orderIndex")
            .map((finding) => finding.streamId),
        ).toEqual([nowhere])
      }),
  )
})

/** A recorded event; `recordedAt` tells appends apart (every store records an append's events at one time). */
const record = (
  streamId: string,
  streamVersion: number,
  globalPosition: bigint,
  type: string,
  data: object,
  recordedAt = 0,
): RecordedEvent => ({
  id: `${streamId}@${streamVersion}`,
  streamId,
  type,
  schemaVersion: 1,
  data,
  metadata: { recordedAt },
  streamVersion,
  globalPosition,
})

describe("the replayer", () => {
  const walletPlaced = (amountFils: number) =>
    WalletTransfer.aggregate.codec.encode({
      _tag: "WalletTransferPlaced",
      merchantId: "M1",
      orderNo: "T-1",
      requestTime: timestamp(0),
      createdTime: timestamp(0),
      product: "TRANSFER_TO_WALLET",
      merchantOrderNo: "W-1",
      beneficiaryIdentityType: "PHONE_NO",
      beneficiaryIdentity: "a".repeat(64) as never,
      amountFils: fils(amountFils),
      memo: "salary",
      payerFeeFils: fils(0),
      arrivalTime: timestamp(0),
    }).data as object
  const walletFailed = WalletTransfer.aggregate.codec.encode({
    _tag: "WalletTransferFailed",
    failCode: "TRANSFER_AMOUNT_LIMIT_EXCEEDED",
    failDes: WalletTransfer.walletFailDescription.TRANSFER_AMOUNT_LIMIT_EXCEEDED,
    at: timestamp(0),
  }).data as object
  const walletStream = WalletTransfer.streamId("M1", "W-1")

  it("judges an append on the state it leaves: a transfer placed above the limit and failed in one append holds", () => {
    const replayer = makeReplayer()
    replayer.apply(record(walletStream, 1, 1n, "WalletTransferPlaced", walletPlaced(2_000_000)))
    replayer.apply(record(walletStream, 2, 2n, "WalletTransferFailed", walletFailed))
    expect(replayer.report().brokenInvariants.listed).toEqual([])
  })

  it("judges an append as one at positions that are not adjacent, as KurrentDB numbers its log", () => {
    const replayer = makeReplayer()
    replayer.apply(record(walletStream, 1, 4_096n, "WalletTransferPlaced", walletPlaced(2_000_000)))
    replayer.apply(record(walletStream, 2, 4_731n, "WalletTransferFailed", walletFailed))
    expect(replayer.report().brokenInvariants.listed).toEqual([])
  })

  it("reports the state between two appends: a transfer above the limit left CREATED until a later append", () => {
    const replayer = makeReplayer()
    replayer.apply(record(walletStream, 1, 1n, "WalletTransferPlaced", walletPlaced(2_000_000), 1_000))
    replayer.apply(record(walletStream, 2, 2n, "WalletTransferFailed", walletFailed, 1_001))
    expect(replayer.report().brokenInvariants.listed).toContainEqual(
      expect.objectContaining({
        streamId: walletStream,
        streamVersion: 1,
        globalPosition: 1n,
        rule: "a transfer that did not fail carries at most AED 10,000",
        detail: "CREATED with 2000000 fils",
      }),
    )
  })

  it("reports an append recorded before the one it follows: recorded history never runs backwards", () => {
    const replayer = makeReplayer()
    const at = Date.UTC(2026, 10, 24, 20, 23)
    replayer.apply(record(walletStream, 1, 1n, "WalletTransferPlaced", walletPlaced(1_000), at))
    replayer.apply(record(walletStream, 2, 2n, "WalletTransferFailed", walletFailed, at - 12 * 60_000))
    expect(replayer.report().brokenInvariants.listed).toContainEqual({
      streamId: walletStream,
      streamVersion: 2,
      globalPosition: 2n,
      kind: "walletTransfer",
      rule: timeRule,
      detail: "recorded at 2026-11-24T20:11:00.000Z, after an event recorded at 2026-11-24T20:23:00.000Z",
    })
  })

  it("replays a merchant's test clock: its advances are the sandbox's, and nothing is broken", () => {
    const replayer = makeReplayer()
    const stream = testClockStreamId("M1")
    const advanced = (offsetMs: number, position: bigint, version: number) =>
      record(
        stream,
        version,
        position,
        "TestClockAdvanced",
        { merchantId: "M1", byMs: 600 * 60_000, offsetMs, at: 0 },
        version,
      )
    replayer.apply(advanced(600 * 60_000, 1n, 1))
    replayer.apply(advanced(1_200 * 60_000, 2n, 2))
    const report = replayer.report()
    expect(isClean(report)).toBe(true)
    expect(report.counts).toContainEqual({
      kind: "sandboxClock",
      streams: 1,
      statuses: [{ status: "ADVANCED", streams: 1 }],
    })
  })

  it("reports a version gap with the version it expected", () => {
    const replayer = makeReplayer()
    replayer.apply(record("vamDeposit/M1/V-1", 1, 1n, "Happened", {}))
    replayer.apply(record("vamDeposit/M1/V-1", 3, 2n, "Happened", {}))
    expect(replayer.report().versionGaps).toEqual({
      total: 1,
      listed: [{ streamId: "vamDeposit/M1/V-1", streamVersion: 3, globalPosition: 2n, expectedVersion: 2 }],
    })
  })

  it("reports an event its aggregate's evolve refuses (a credit to an account never opened)", () => {
    const replayer = makeReplayer()
    replayer.apply(
      record("memberAccount/abc", 1, 1n, "MemberAccountCredited", {
        reference: "T-1",
        amount: 100,
        balanceAfterFils: 100,
        at: 0,
      }),
    )
    expect(replayer.report().brokenInvariants.listed).toEqual([
      expect.objectContaining({ streamId: "memberAccount/abc", streamVersion: 1, rule: evolveRule }),
    ])
  })

  it("lists at most findingsListedMax findings of a kind and counts them all", () => {
    const replayer = makeReplayer({ findingsListedMax: 2 })
    for (let v = 1; v <= 5; v++) replayer.apply(record("mystery", v, BigInt(v), "Happened", {}))
    const { undecodable } = replayer.report()
    expect(undecodable.total).toBe(5)
    expect(undecodable.listed).toHaveLength(2)
  })
})
