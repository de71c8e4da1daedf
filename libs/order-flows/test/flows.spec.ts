import { it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { AcquiringOrder } from "@mizan/acquiring"
import { at, createOrder, merchantId, payOrder, refundRequest, sharingItem } from "@mizan/acquiring/testing"
import {
  EventStore,
  handleCommand,
  layerMemory,
  loadAggregate,
  logStart,
  makeMemoryEventStore,
  type NewEvent,
} from "@mizan/eventsourcing"
import { fils, hourMs, type Timestamp } from "@mizan/kernel"
import { RefundOrder } from "@mizan/refund"
import { Effect, Exit, Layer } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import * as Flows from "../src/index.ts"
import { endRefund, requestRefund, revokeOrder } from "./flow.ts"
import { cutAfterTheFirstPart, withWritesRecorded } from "./stores.ts"

const event = (type: string): NewEvent => ({ type, schemaVersion: 1, data: {} })

/**
 * The memory store, with a yield after every read: concurrent commands then
 * really interleave between reading a stream and appending to it, so the
 * expected-version check and the handler's retries are exercised.
 */
const layerInterleaving = Layer.sync(EventStore, () => {
  const store = makeMemoryEventStore()
  return {
    ...store,
    readStream: (streamId, options) => Effect.tap(store.readStream(streamId, options), () => Effect.yieldNow),
  }
})

/** Each test on a store of its own: the tests reuse order numbers. */
const onMemoryStore = Effect.provide(layerMemory)

/** A fast-check property owns its loop and awaits each run, so each run is a promise of its own. */
const runProperty = <A, E>(effect: Effect.Effect<A, E, EventStore>) =>
  Effect.runPromise(Effect.provide(effect, layerInterleaving))

const orderOf = (state: AcquiringOrder.State): AcquiringOrder.Order => {
  if (!AcquiringOrder.isOrder(state)) throw new Error("no order")
  return state
}

const loadOrder = (merchantOrderNo = "ORDER-1") =>
  Effect.map(
    loadAggregate(AcquiringOrder.aggregate, AcquiringOrder.streamId(merchantId, merchantOrderNo)),
    ({ state }) => orderOf(state),
  )

const loadRefund = (refundMerchantOrderNo: string, cause: "REQUEST" | "REVOKE" = "REQUEST") =>
  Effect.map(
    loadAggregate(RefundOrder.aggregate, RefundOrder.streamId(merchantId, refundMerchantOrderNo, cause)),
    ({ state }) => state,
  )

/** A paid order of 100.00 AED, split between the payee and two sharing members. */
const paidOrder = (merchantOrderNo = "ORDER-1") =>
  Effect.gen(function* () {
    const stream = AcquiringOrder.streamId(merchantId, merchantOrderNo)
    yield* handleCommand(
      AcquiringOrder.aggregate,
      stream,
      createOrder({ merchantOrderNo, sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 2_000)] }),
    )
    yield* handleCommand(AcquiringOrder.aggregate, stream, payOrder())
  })

const request = (
  overrides: Partial<AcquiringOrder.RefundRequest> = {},
  originMerchantOrderNo = "ORDER-1",
  now: Timestamp = at(hourMs),
) =>
  requestRefund({
    merchantId,
    originMerchantOrderNo,
    refundOrderNo: `SVC-${overrides.refundMerchantOrderNo ?? "REFUND-1"}-${originMerchantOrderNo}`,
    request: refundRequest(overrides),
    now,
  })

const end = (refundMerchantOrderNo: string, outcome: "SUCCESS" | "FAILURE", cause: "REQUEST" | "REVOKE" = "REQUEST") =>
  endRefund({ merchantId, refundMerchantOrderNo, cause, outcome, now: at(2 * hourMs) })

describe("the refund request flow", () => {
  it.effect("reserves on the acquiring order, then creates the refund order from the reservation", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      const answer = yield* request({ amountFils: fils(1_000), refundSharingAmount: true })
      expect(answer.refundSummary).toEqual({ acquireAmountFils: 10_000, remainRefundAmountFils: 9_000 })
      expect(answer.refund).toMatchObject({
        status: "CREATED",
        orderNo: "SVC-REFUND-1-ORDER-1",
        details: { amountFils: 1_000, payeeRefundFils: 475, feeRefundedFils: 25 },
      })
      expect((yield* loadOrder()).refunds).toMatchObject([{ refundOrderNo: "SVC-REFUND-1-ORDER-1", status: "PENDING" }])
    }).pipe(onMemoryStore),
  )

  it.effect("answers a repeated request with the existing refund, its number indexed, and appends nothing", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      const first = yield* request()
      const appended = (yield* (yield* EventStore).readAll({ after: -1n, maxCount: 100 })).length
      const again = yield* requestRefund({
        merchantId,
        originMerchantOrderNo: "ORDER-1",
        refundOrderNo: "SVC-FRESH",
        request: refundRequest(),
        now: at(3 * hourMs),
      })
      expect(again.refund).toEqual(first.refund)
      expect((yield* (yield* EventStore).readAll({ after: -1n, maxCount: 100 })).length).toBe(appended)
      const refundStream = RefundOrder.streamId(merchantId, "REFUND-1")
      expect(yield* Flows.findByOrderNo(merchantId, first.refund.orderNo, "refund")).toBe(refundStream)
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-FRESH", "refund")).toBeUndefined()
    }).pipe(onMemoryStore),
  )

  it.effect("answers the acquiring order's refusal and creates no refund order (62006)", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      const refused = yield* Effect.flip(request({ amountFils: fils(10_001) }))
      expect(refused).toMatchObject({ _tag: "Rejection", code: "REFUND_AMOUNT_EXCEEDED" })
      expect((yield* loadRefund("REFUND-1")).status).toBe("ABSENT")
    }).pipe(onMemoryStore),
  )

  it.effect("heals a crash between the reservation and the refund order when the request is retried", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      // The first attempt reserved, then the process died before creating the refund order.
      yield* handleCommand(AcquiringOrder.aggregate, AcquiringOrder.streamId(merchantId, "ORDER-1"), {
        _tag: "ReserveRefund",
        merchantId,
        now: at(hourMs),
        refundOrderNo: "SVC-FIRST",
        request: refundRequest(),
      })
      const retried = yield* request()
      expect(retried.refund).toMatchObject({ status: "CREATED", orderNo: "SVC-FIRST" })
      expect((yield* loadOrder()).refunds).toHaveLength(1)
    }).pipe(onMemoryStore),
  )

  it.effect(
    "answers 62017 for a refund number already used for another order, and releases what it reserved there",
    () =>
      Effect.gen(function* () {
        yield* paidOrder("ORDER-1")
        yield* paidOrder("ORDER-2")
        yield* request({}, "ORDER-1")
        const refused = yield* Effect.flip(request({}, "ORDER-2"))
        expect(refused).toMatchObject({ _tag: "Rejection", code: "REFUND_MERCHANT_ORDER_NO_EXIST" })
        const other = yield* loadOrder("ORDER-2")
        expect(other.refunds).toMatchObject([{ status: "RELEASED" }])
        expect(other.pendingRefundFils).toBe(0)
      }).pipe(onMemoryStore),
  )
})

describe("creating a refund order", () => {
  const refundStream = RefundOrder.streamId(merchantId, "REFUND-1")
  const refundIndex = Flows.orderIndexStreamId(merchantId, "SVC-REFUND-1-ORDER-1")

  it.effect("writes the refund order and its orderNo's index in one appendMany, after the reservation", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      const { answer, writes } = yield* withWritesRecorded(request())
      expect(answer.refund.orderNo).toBe("SVC-REFUND-1-ORDER-1")
      expect(writes).toEqual([[AcquiringOrder.streamId(merchantId, "ORDER-1")], [refundStream, refundIndex]])
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-REFUND-1-ORDER-1", "refund")).toBe(refundStream)
    }).pipe(onMemoryStore),
  )

  it.effect("heals a refund order written without its index when the request is retried", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      expect(yield* cutAfterTheFirstPart(request())).toMatchObject({ _tag: "StoreError" })
      expect((yield* loadRefund("REFUND-1")).status).toBe("CREATED")
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-REFUND-1-ORDER-1", "refund")).toBeUndefined()
      const { writes } = yield* withWritesRecorded(request())
      // The guess of a new refund conflicts, writing nothing; the repeat then indexes the first refund's number.
      expect(writes).toEqual([[refundStream, refundIndex], [refundIndex]])
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-REFUND-1-ORDER-1", "refund")).toBe(refundStream)
    }).pipe(onMemoryStore),
  )

  it.effect("indexes nothing for a refund number of another order's refund (62017)", () =>
    Effect.gen(function* () {
      yield* paidOrder("ORDER-1")
      yield* paidOrder("ORDER-2")
      yield* request({}, "ORDER-1")
      yield* Effect.flip(request({}, "ORDER-2"))
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-REFUND-1-ORDER-2", "refund")).toBeUndefined()
    }).pipe(onMemoryStore),
  )
})

describe("the end of a refund", () => {
  it.effect("confirms a succeeded refund on the acquiring order: refunded, and the balance stays lowered", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      yield* request({ amountFils: fils(4_000) })
      const refund = yield* end("REFUND-1", "SUCCESS")
      expect(refund.status).toBe("SUCCESS")
      expect(yield* loadOrder()).toMatchObject({ refundedFils: 4_000, pendingRefundFils: 0 })
    }).pipe(onMemoryStore),
  )

  it.effect("releases a failed refund's amount back to the refundable balance", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      yield* request({ amountFils: fils(10_000), refundSharingAmount: true })
      yield* end("REFUND-1", "FAILURE")
      const again = yield* request({
        refundMerchantOrderNo: "REFUND-2",
        amountFils: fils(10_000),
        refundSharingAmount: true,
      })
      expect(again.refundSummary.remainRefundAmountFils).toBe(0)
      expect(yield* loadOrder()).toMatchObject({ refundedFils: 0, pendingRefundFils: 10_000 })
    }).pipe(onMemoryStore),
  )

  it.effect("heals a crash between the refund's end and its confirmation when the end is reported again", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      yield* request()
      yield* handleCommand(RefundOrder.aggregate, RefundOrder.streamId(merchantId, "REFUND-1"), {
        _tag: "CompleteRefund",
        merchantId,
        now: at(2 * hourMs),
      })
      expect((yield* loadOrder()).pendingRefundFils).toBe(1_000)
      yield* end("REFUND-1", "SUCCESS")
      expect(yield* loadOrder()).toMatchObject({ refundedFils: 1_000, pendingRefundFils: 0 })
    }).pipe(onMemoryStore),
  )
})

describe("the revoke flow", () => {
  const revoke = () =>
    revokeOrder({ merchantId, merchantOrderNo: "ORDER-1", refundOrderNo: "SVC-REVOKE-1", now: at(hourMs) })

  it.effect(
    "creates a separate refund order of the whole payment for a paid, unsettled order, which becomes FAILURE",
    () =>
      Effect.gen(function* () {
        yield* paidOrder()
        const order = yield* revoke()
        expect(order).toMatchObject({ status: "FAILURE", revoked: true })
        const refund = yield* loadRefund("ORDER-1", "REVOKE")
        expect(refund).toMatchObject({
          status: "CREATED",
          orderNo: "SVC-REVOKE-1",
          details: { cause: "REVOKE", amountFils: 10_000, originMerchantOrderNo: "ORDER-1" },
        })
        yield* end("ORDER-1", "SUCCESS", "REVOKE")
        expect(yield* loadOrder()).toMatchObject({ refundedFils: 10_000, pendingRefundFils: 0 })
      }).pipe(onMemoryStore),
  )

  it.effect("keeps a settled order SETTLED with revoked true and its refund as a separate refund order", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      yield* handleCommand(AcquiringOrder.aggregate, AcquiringOrder.streamId(merchantId, "ORDER-1"), {
        _tag: "SettleOrder",
        merchantId,
        now: at(30 * 60_000),
      })
      expect(yield* revoke()).toMatchObject({ status: "SETTLED", revoked: true })
      expect((yield* loadRefund("ORDER-1", "REVOKE")).status).toBe("CREATED")
      // The merchant's own refund numbers live apart: REFUND-1 is still free.
      expect((yield* loadRefund("ORDER-1")).status).toBe("ABSENT")
    }).pipe(onMemoryStore),
  )

  it.effect("creates the refund order when a revoke is retried after a crash that followed the reservation", () =>
    Effect.gen(function* () {
      yield* paidOrder()
      yield* handleCommand(AcquiringOrder.aggregate, AcquiringOrder.streamId(merchantId, "ORDER-1"), {
        _tag: "RevokeOrder",
        merchantId,
        now: at(hourMs),
        refundOrderNo: "SVC-REVOKE-1",
      })
      yield* revokeOrder({ merchantId, merchantOrderNo: "ORDER-1", refundOrderNo: "SVC-REVOKE-2", now: at(hourMs) })
      expect(yield* loadRefund("ORDER-1", "REVOKE")).toMatchObject({ status: "CREATED", orderNo: "SVC-REVOKE-1" })
    }).pipe(onMemoryStore),
  )
})

describe("concurrency", () => {
  interface RefundAttempt {
    readonly number: number
    readonly amountFils: number
    readonly refundSharingAmount: boolean
  }
  const refundAttempt: fc.Arbitrary<RefundAttempt> = fc.record({
    number: fc.integer({ min: 0, max: 7 }),
    amountFils: fc.integer({ min: 1, max: 6_000 }),
    refundSharingAmount: fc.boolean(),
  })
  const endAttempt = fc.record({ number: fc.integer({ min: 0, max: 7 }), succeeded: fc.boolean() })

  const requestOf = (a: RefundAttempt) =>
    request({
      refundMerchantOrderNo: `R${a.number}`,
      amountFils: fils(a.amountFils),
      refundSharingAmount: a.refundSharingAmount,
    })

  /** Runs the flows at once; those that lost too many races are retried one by one, as a client retries. */
  const concurrently = (flows: ReadonlyArray<Effect.Effect<unknown, unknown, EventStore>>) =>
    Effect.gen(function* () {
      const exits = yield* Effect.all(flows.map(Effect.exit), { concurrency: "unbounded" })
      const lost = flows.filter((_, i) => {
        const exit = exits[i]
        if (exit === undefined || Exit.isSuccess(exit)) return false
        expect(String(exit.cause)).toMatch(/Rejection|VersionConflict/)
        return String(exit.cause).includes("VersionConflict")
      })
      yield* Effect.forEach(lost, Effect.exit, { discard: true })
    })

  test.prop(
    [
      fc.array(refundAttempt, { minLength: 2, maxLength: 10 }),
      fc.array(endAttempt, { maxLength: 8 }),
      fc.array(refundAttempt, { maxLength: 6 }),
    ],
    { numRuns: 50 },
  )(
    "no interleaving of concurrent refund requests and refund ends exceeds the paid amount, and both streams agree",
    (firstRequests, ends, laterRequests) =>
      runProperty(
        Effect.gen(function* () {
          yield* paidOrder()
          yield* concurrently(firstRequests.map(requestOf))
          yield* concurrently([
            ...ends.map((e) => end(`R${e.number}`, e.succeeded ? "SUCCESS" : "FAILURE")),
            ...laterRequests.map(requestOf),
          ])

          const order = yield* loadOrder()
          expect(AcquiringOrder.invariants(order)).toEqual([])
          const refunds: Array<RefundOrder.Order> = []
          for (let n = 0; n <= 7; n++) {
            const state = yield* loadRefund(`R${n}`)
            expect(RefundOrder.invariants(state)).toEqual([])
            if (RefundOrder.isRefund(state)) refunds.push(state)
          }
          const notFailed = refunds.filter((r) => r.status !== "FAILURE")
          expect(notFailed.reduce((sum, r) => sum + r.details.amountFils, 0)).toBeLessThanOrEqual(10_000)
          // Every refund order has its reservation in the matching state, and every reservation its refund order.
          const reservationStatus = {
            CREATED: "PENDING",
            REFUNDED_SETTLED: "PENDING",
            SUCCESS: "SUCCEEDED",
            FAILURE: "RELEASED",
          } as const
          for (const refund of refunds)
            expect(order.refunds.find((r) => r.refundOrderNo === refund.orderNo)).toMatchObject({
              status: reservationStatus[refund.status],
              request: { amountFils: refund.details.amountFils },
            })
          expect(order.refunds.length).toBe(refunds.length)
        }),
      ),
  )
})

describe("placing an acquiring order", () => {
  const stream = AcquiringOrder.streamId(merchantId, "ORDER-1")
  const place = (orderNo: string) => Flows.placeAcquiringOrder(stream, { ...createOrder(), orderNo })

  it.effect("writes the order and its orderNo's index in one appendMany, the order first", () =>
    Effect.gen(function* () {
      const store = yield* EventStore
      const { answer: order, writes } = yield* withWritesRecorded(place("SVC-1"))
      expect(order.orderNo).toBe("SVC-1")
      expect(writes).toEqual([[stream, Flows.orderIndexStreamId(merchantId, "SVC-1")]])
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-1", "acquiring")).toBe(stream)
      const log = yield* store.readAll({ after: logStart, maxCount: 10 })
      expect(log.map((e) => e.streamId)).toEqual([stream, Flows.orderIndexStreamId(merchantId, "SVC-1")])
    }).pipe(onMemoryStore),
  )

  it.effect("places the order even when its new orderNo is indexed already, leaving that index as it was", () =>
    Effect.gen(function* () {
      const store = yield* EventStore
      const taken = Flows.orderIndexStreamId(merchantId, "SVC-1")
      yield* store.append(taken, [event("Squatter")], "no_stream")
      // The appendMany conflicts on the index as a whole (nothing written); the order is then placed on its own.
      const order = yield* place("SVC-1")
      expect(order.status).toBe("CREATED")
      expect((yield* store.readStream(stream)).length).toBe(1)
      expect((yield* store.readStream(taken)).map((e) => e.type)).toEqual(["Squatter"])
    }).pipe(onMemoryStore),
  )

  it.effect("answers a repeat with the first order, indexing that order's number and not the repeat's", () =>
    Effect.gen(function* () {
      yield* place("SVC-1")
      const repeat = yield* place("SVC-2")
      expect(repeat.orderNo).toBe("SVC-1")
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-2", "acquiring")).toBeUndefined()
      expect((yield* (yield* EventStore).readAll({ after: logStart, maxCount: 10 })).length).toBe(2)
    }).pipe(onMemoryStore),
  )

  it.effect("heals an order placed without its index (a first request cut short) when the create is repeated", () =>
    Effect.gen(function* () {
      yield* Flows.onOrder(stream, { ...createOrder(), orderNo: "SVC-1" })
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-1", "acquiring")).toBeUndefined()
      yield* place("SVC-2")
      expect(yield* Flows.findByOrderNo(merchantId, "SVC-1", "acquiring")).toBe(stream)
    }).pipe(onMemoryStore),
  )
})
