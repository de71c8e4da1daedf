/**
 * Half-done flows finish by themselves: which first steps a crash left
 * without their second (`halfDoneDue`), and that completing them
 * (`completeHalfDone`) leaves every flow whole, as the uncut flow would
 * have, with nothing left due and the aggregates' rules holding.
 */
import { it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { AcquiringOrder, refundDetails } from "@mizan/acquiring"
import { at, createOrder, merchantId, payOrder, refundRequest } from "@mizan/acquiring/testing"
import { EventStore, handleCommand, layerMemory, loadAggregate, type RecordedEvent } from "@mizan/eventsourcing"
import { readWholeLog } from "@mizan/eventsourcing/testing"
import { fils, hourMs, type Timestamp } from "@mizan/kernel"
import { RefundOrder } from "@mizan/refund"
import { WalletTransfer } from "@mizan/transfer"
import { digestOf, placeWalletTransfer } from "@mizan/transfer/testing"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import * as Flows from "../src/index.ts"
import { cutAfterTheFirstPart } from "./stores.ts"

/** The spec's 30 seconds, written here rather than read from the constant under test. */
const thirtySecondsMs = 30_000

const acquiringStream = AcquiringOrder.streamId(merchantId, "ORDER-1")
const now = at(hourMs)
/** The tests run on one merchant's time: `now` for every command. */
const onTestTime: Flows.OnMerchantTime = (_merchantId, work) => work(now)

/** Refund completions never ask the member directory: one that fails shows it. */
const noDirectory = Flows.MemberDirectory.of({
  find: () => Effect.die(new Error("a refund completion asked the member directory")),
  credit: () => Effect.die(new Error("a refund completion asked the member directory")),
})

const complete = (step: Flows.HalfDoneStep) =>
  Effect.provideService(Flows.completeHalfDone(step, onTestTime), Flows.MemberDirectory, noDirectory)

const paidOrder = Effect.gen(function* () {
  yield* Flows.placeAcquiringOrder(acquiringStream, createOrder({ merchantOrderNo: "ORDER-1" }))
  yield* handleCommand(AcquiringOrder.aggregate, acquiringStream, payOrder())
})

const loadOrder = Effect.map(loadAggregate(AcquiringOrder.aggregate, acquiringStream), ({ state }) => {
  if (!AcquiringOrder.isOrder(state)) throw new Error("no order")
  return state
})

const loadRefund = (refundMerchantOrderNo: string, cause: RefundOrder.RefundCause = "REQUEST") =>
  Effect.map(
    loadAggregate(RefundOrder.aggregate, RefundOrder.streamId(merchantId, refundMerchantOrderNo, cause)),
    ({ state }) => state,
  )

/** The log folded through the recovery's tracker, every event seen at time 0. */
const trackedLog = Effect.gen(function* () {
  const flows = Flows.noHalfDoneFlows()
  const log: ReadonlyArray<RecordedEvent> = yield* readWholeLog(yield* EventStore)
  for (const event of log) Flows.trackHalfDone(flows, event, 0)
  return flows
})

/** A refund request as the gateway runs it, or only its first step, as a crash right after the reservation leaves it. */
const refund = (n: number, amountFils: number, cut: boolean) => {
  const request = refundRequest({ refundMerchantOrderNo: `REFUND-${n}`, amountFils: fils(amountFils) })
  const refundOrderNo = `SVC-R${n}`
  return cut
    ? handleCommand(AcquiringOrder.aggregate, acquiringStream, {
        _tag: "ReserveRefund",
        merchantId,
        now,
        refundOrderNo,
        request,
      })
    : Flows.requestRefund({ merchantId, acquiringStream, request, now, refundOrderNo })
}

/** Up to six refunds of one paid order of 100.00 AED, each cut after its reservation or not; never more than paid. */
const refundsArbitrary = fc.array(fc.record({ amountFils: fc.integer({ min: 1, max: 1_600 }), cut: fc.boolean() }), {
  maxLength: 6,
})

/** A fast-check property owns its loop and awaits each run, so each run is a promise of its own. */
const runProperty = <A, E>(effect: Effect.Effect<A, E, EventStore>) =>
  Effect.runPromise(Effect.provide(effect, layerMemory))

describe("which flows are half done", () => {
  test.prop([refundsArbitrary])(
    "a reservation is half done exactly when its refund order was never created, and only once 30 s have passed",
    (refunds) =>
      runProperty(
        Effect.gen(function* () {
          yield* paidOrder
          for (const [n, { amountFils, cut }] of refunds.entries()) yield* refund(n, amountFils, cut)
          const flows = yield* trackedLog
          expect(Flows.halfDoneDue(flows, thirtySecondsMs - 1)).toEqual([])
          expect(Flows.halfDoneDue(flows, thirtySecondsMs)).toEqual(
            refunds.flatMap(({ cut }, n) =>
              cut ? [{ _tag: "CreateRefundOrder", acquiringStream, refundOrderNo: `SVC-R${n}` }] : [],
            ),
          )
        }),
      ),
  )

  it.effect("an ended refund order whose reservation was neither confirmed nor released is half done", () =>
    Effect.gen(function* () {
      yield* paidOrder
      yield* refund(1, 1_000, false)
      const refundStream = RefundOrder.streamId(merchantId, "REFUND-1")
      // The refund's end was recorded, then the process died before confirming the reservation.
      yield* Flows.onRefund(refundStream, { _tag: "CompleteRefund", merchantId, now })
      expect(Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)).toEqual([
        { _tag: "EndReservation", refundStream, refundOrderNo: "SVC-R1" },
      ])
      yield* Flows.endRefund(refundStream, { _tag: "CompleteRefund" }, now)
      expect(Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)).toEqual([])
    }).pipe(Effect.provide(layerMemory)),
  )
})

describe("an order created without its orderNo's index", () => {
  it.effect("is half done when the store cut the write between its parts, and its completion indexes it", () =>
    Effect.gen(function* () {
      const create = createOrder({ merchantOrderNo: "ORDER-1" })
      expect(yield* cutAfterTheFirstPart(Flows.placeAcquiringOrder(acquiringStream, create))).toMatchObject({
        _tag: "StoreError",
      })
      const due = Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)
      expect(due).toEqual([
        { _tag: "IndexOrderNo", merchantId, orderNo: create.orderNo, kind: "acquiring", streamId: acquiringStream },
      ])
      for (const step of due) yield* complete(step)
      expect(yield* Flows.findByOrderNo(merchantId, create.orderNo, "acquiring")).toBe(acquiringStream)
      expect(Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)).toEqual([])
    }).pipe(Effect.provide(layerMemory)),
  )
})

describe("what completes them", () => {
  test.prop([refundsArbitrary])(
    "completing each half-done reservation creates its refund order as the uncut flow would, and leaves nothing due",
    (refunds) =>
      runProperty(
        Effect.gen(function* () {
          yield* paidOrder
          for (const [n, { amountFils, cut }] of refunds.entries()) yield* refund(n, amountFils, cut)
          for (const step of Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)) yield* complete(step)
          const order = yield* loadOrder
          for (const [n] of refunds.entries()) {
            const reservation = AcquiringOrder.refundByOrderNo(order, `SVC-R${n}`)
            expect(reservation?.status).toBe("PENDING")
            expect(yield* loadRefund(`REFUND-${n}`)).toMatchObject({
              status: "CREATED",
              orderNo: `SVC-R${n}`,
              details: refundDetails(order, reservation as AcquiringOrder.RefundReservation),
            })
            expect(yield* Flows.findByOrderNo(merchantId, `SVC-R${n}`, "refund")).toBe(
              RefundOrder.streamId(merchantId, `REFUND-${n}`),
            )
          }
          expect(AcquiringOrder.invariants(order)).toEqual([])
          expect(Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)).toEqual([])
        }),
      ),
  )

  it.effect("a completion run again, or after the merchant's retry, appends nothing", () =>
    Effect.gen(function* () {
      yield* paidOrder
      yield* refund(1, 1_000, true)
      const [step] = Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)
      if (step === undefined) throw new Error("the cut refund is not due")
      yield* complete(step)
      const store = yield* EventStore
      const written = (yield* readWholeLog(store)).length
      yield* complete(step)
      const retried = yield* refund(1, 1_000, false)
      expect((yield* readWholeLog(store)).length).toBe(written)
      expect(retried).toMatchObject({ refund: { orderNo: "SVC-R1", status: "CREATED" } })
    }).pipe(Effect.provide(layerMemory)),
  )

  it.effect("a revoke cut after its reservation gets its REVOKE refund order", () =>
    Effect.gen(function* () {
      yield* paidOrder
      yield* handleCommand(AcquiringOrder.aggregate, acquiringStream, {
        _tag: "RevokeOrder",
        merchantId,
        now,
        refundOrderNo: "SVC-REVOKE",
      })
      const due = Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)
      expect(due).toEqual([{ _tag: "CreateRefundOrder", acquiringStream, refundOrderNo: "SVC-REVOKE" }])
      for (const step of due) yield* complete(step)
      expect(yield* loadRefund("ORDER-1", "REVOKE")).toMatchObject({
        status: "CREATED",
        orderNo: "SVC-REVOKE",
        details: { amountFils: 10_000 },
      })
      expect(Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)).toEqual([])
    }).pipe(Effect.provide(layerMemory)),
  )

  it.effect("an ended refund's reservation is confirmed, and a failed one's released", () =>
    Effect.gen(function* () {
      yield* paidOrder
      yield* refund(1, 1_000, false)
      yield* refund(2, 2_000, false)
      yield* Flows.onRefund(RefundOrder.streamId(merchantId, "REFUND-1"), { _tag: "CompleteRefund", merchantId, now })
      yield* Flows.onRefund(RefundOrder.streamId(merchantId, "REFUND-2"), {
        _tag: "FailRefund",
        merchantId,
        now,
        failCode: "BANK_REJECTED",
        failDes: "the bank refused the refund",
      })
      for (const step of Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)) yield* complete(step)
      const order = yield* loadOrder
      expect(AcquiringOrder.refundByOrderNo(order, "SVC-R1")?.status).toBe("SUCCEEDED")
      expect(AcquiringOrder.refundByOrderNo(order, "SVC-R2")?.status).toBe("RELEASED")
      expect(AcquiringOrder.refundSummary(order)).toEqual({ acquireAmountFils: 10_000, remainRefundAmountFils: 9_000 })
      expect(Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)).toEqual([])
    }).pipe(Effect.provide(layerMemory)),
  )
})

describe("a wallet transfer placed and never settled", () => {
  const walletStream = WalletTransfer.streamId("M1", "W-1")
  const credits: Array<string> = []
  const directory = (available: boolean) =>
    Flows.MemberDirectory.of({
      find: () => Effect.succeed({ _tag: "MemberFound", fullName: digestOf(3), balanceFils: fils(0) }),
      credit: ({ reference }) => {
        if (!available) return Effect.fail(new Flows.MemberDirectoryUnavailable({ detail: "down" }))
        credits.push(reference)
        return Effect.void
      },
    })
  const transfer = (placedAt: Timestamp) => {
    const { _tag, beneficiary, ...input } = placeWalletTransfer({
      now: placedAt,
      orderNo: "W-SVC-1",
      beneficiaryIdentity: digestOf(4),
      beneficiary: { _tag: "MemberNotFound" },
    })
    return Flows.transferToWallet(input)
  }

  it.effect("is credited once and settled SUCCESS by its completion", () =>
    Effect.gen(function* () {
      // The directory was down when the request ran: the order stays CREATED, as a crash before the credit leaves it.
      yield* Effect.flip(Effect.provideService(transfer(now), Flows.MemberDirectory, directory(false)))
      const due = Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)
      expect(due).toEqual([{ _tag: "SettleWalletTransfer", walletStream }])
      for (const step of due)
        yield* Effect.provideService(Flows.completeHalfDone(step, onTestTime), Flows.MemberDirectory, directory(true))
      const { state } = yield* loadAggregate(WalletTransfer.aggregate, walletStream)
      expect(state.status).toBe("SUCCESS")
      expect(credits).toEqual(["W-SVC-1"])
      expect(Flows.halfDoneDue(yield* trackedLog, thirtySecondsMs)).toEqual([])
    }).pipe(Effect.provide(layerMemory)),
  )
})
