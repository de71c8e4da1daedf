/**
 * Completes a half-done flow (`halfDone.ts`) from what its first step
 * recorded, with the same idempotent steps the request would have run
 * next: a merchant's retry that comes later, or meets the completion
 * midway, decides nothing new and answers what the completion made.
 */
import { AcquiringOrder } from "@mizan/acquiring"
import { loadAggregate } from "@mizan/eventsourcing"
import { isForgotten, type Timestamp } from "@mizan/kernel"
import { RefundOrder } from "@mizan/refund"
import { WalletTransfer } from "@mizan/transfer"
import { Effect } from "effect"
import { createRefundFromReservation, endReservationOf } from "../flows.ts"
import { indexOrderNo } from "../orderIndex.ts"
import { creditAndSettle } from "../wallet/transferToWallet.ts"
import type { HalfDoneStep } from "./halfDone.ts"

/**
 * Runs `work` on a merchant's time, with its `now`: the service's sandbox
 * test clocks move each merchant's time apart, and every command carries
 * its merchant's.
 */
export type OnMerchantTime = <A, E, R>(
  merchantId: string,
  work: (now: Timestamp) => Effect.Effect<A, E, R>,
) => Effect.Effect<A, E, R>

/**
 * The refund merchant order number a reservation's refund order is kept
 * under: the refund request's, or for a revoke the order's own
 * (`revokeOrder`).
 */
export const refundNumberOf = (order: AcquiringOrder.Order, reservation: AcquiringOrder.RefundReservation): string =>
  reservation.cause === "REVOKE" ? order.request.merchantOrderNo : reservation.request.refundMerchantOrderNo

/** The reservation's refund order, created from it, when the reservation is still pending. */
const createRefundOrder = Effect.fn("Recovery.createRefundOrder")(function* (
  acquiringStream: string,
  refundOrderNo: string,
  onMerchantTime: OnMerchantTime,
) {
  const { state } = yield* loadAggregate(AcquiringOrder.aggregate, acquiringStream)
  if (!AcquiringOrder.isOrder(state)) return
  const reservation = AcquiringOrder.refundByOrderNo(state, refundOrderNo)
  if (reservation?.status !== "PENDING") return
  yield* onMerchantTime(state.merchantId, (now) =>
    createRefundFromReservation(state, acquiringStream, refundNumberOf(state, reservation), reservation.cause, now),
  )
})

/** The reservation of an ended refund order confirmed or released. */
const endReservation = Effect.fn("Recovery.endReservation")(function* (
  refundStream: string,
  onMerchantTime: OnMerchantTime,
) {
  const { state } = yield* loadAggregate(RefundOrder.aggregate, refundStream)
  if (!RefundOrder.isRefund(state)) return
  yield* onMerchantTime(state.merchantId, (now) => endReservationOf(state, now))
})

/** A CREATED wallet transfer's member credited and the order settled. */
const settleWalletTransfer = Effect.fn("Recovery.settleWalletTransfer")(function* (
  walletStream: string,
  onMerchantTime: OnMerchantTime,
) {
  const { state } = yield* loadAggregate(WalletTransfer.aggregate, walletStream)
  // A forgotten beneficiary names no member to credit: the order stays CREATED, as an unavailable directory leaves it.
  if (state.status !== "CREATED" || isForgotten(state.beneficiaryIdentity)) return
  const identity = state.beneficiaryIdentity
  yield* onMerchantTime(state.merchantId, (now) => creditAndSettle(state, identity, now))
})

/** Completes one half-done flow; nothing when its first step has been followed meanwhile. */
export const completeHalfDone = (step: HalfDoneStep, onMerchantTime: OnMerchantTime) => {
  switch (step._tag) {
    case "IndexOrderNo":
      return indexOrderNo(step.merchantId, step.orderNo, step.kind, step.streamId)
    case "CreateRefundOrder":
      return createRefundOrder(step.acquiringStream, step.refundOrderNo, onMerchantTime)
    case "EndReservation":
      return endReservation(step.refundStream, onMerchantTime)
    case "SettleWalletTransfer":
      return settleWalletTransfer(step.walletStream, onMerchantTime)
  }
}
