/**
 * The service's payment operations, written on Mizan's order flows
 * (`@mizan/order-flows`): the refundable balance lives on the order's own
 * stream, so no interleaving of refunds can refund more than was paid.
 * The platform is the one merchant here; its order and refund ids are the
 * merchant's numbers.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import { fils, type Timestamp } from "@mizan/kernel"
import {
  endRefund,
  newOrderNo,
  onOrder,
  placeAcquiringOrder,
  readOrderExpiringIfDue,
  requestRefund,
} from "@mizan/order-flows"
import { RefundOrder } from "@mizan/refund"
import { Effect } from "effect"

/** The platform's merchant id (Mizan allows at most 12 characters). */
export const merchantId = "PLATFORM"

export interface NewOrder {
  readonly orderId: string
  readonly amountFils: number
  readonly description: string
}

export const createOrder = (input: NewOrder, now: Timestamp) =>
  Effect.gen(function* () {
    const streamId = AcquiringOrder.streamId(merchantId, input.orderId)
    // Mizan's own order number finds the order too (libs' flows read it): placed and indexed in one write.
    return yield* placeAcquiringOrder(streamId, {
      _tag: "CreateOrder",
      merchantId,
      now,
      orderNo: newOrderNo(now, "acquiring"),
      requestTime: now,
      request: {
        merchantOrderNo: input.orderId,
        subject: input.description,
        totalAmountFils: fils(input.amountFils),
        paySceneCode: "PAYPAGE",
      },
    })
  })

/**
 * The payment provider reports the order paid in full. A real service gets
 * this from its provider's callback; the payer's details are the provider's.
 */
export const payOrder = (orderId: string, now: Timestamp) =>
  Effect.gen(function* () {
    const streamId = AcquiringOrder.streamId(merchantId, orderId)
    const order = yield* readOrderExpiringIfDue(merchantId, streamId, now)
    return yield* onOrder(streamId, {
      _tag: "PayOrder",
      merchantId,
      now,
      attemptId: `${orderId}-payment`,
      paidAmountFils: order.request.totalAmountFils,
      payChannel: "BANKCARD",
      payerFeeFils: fils(0),
      feePlan: { basisPoints: 0, fixedFils: fils(0) },
      payer: { payerMid: "provider-payer", mobileNumberMask: "971***0000", deviceId: "web", ipAddress: "0.0.0.0" },
    })
  })

/** Requests a refund: reserved on the order first, then its refund order is created (pending until completed). */
export const refundOrder = (orderId: string, refund: { refundId: string; amountFils: number }, now: Timestamp) =>
  Effect.map(
    requestRefund({
      merchantId,
      acquiringStream: AcquiringOrder.streamId(merchantId, orderId),
      request: { refundMerchantOrderNo: refund.refundId, amountFils: fils(refund.amountFils) },
      now,
    }),
    ({ order }) => order,
  )

/** The bank reports the refund paid back: it counts as refunded from now on. */
export const completeRefund = (refundId: string, now: Timestamp) =>
  Effect.asVoid(endRefund(RefundOrder.streamId(merchantId, refundId), { _tag: "CompleteRefund" }, now))

export const readOrder = (orderId: string, now: Timestamp) =>
  readOrderExpiringIfDue(merchantId, AcquiringOrder.streamId(merchantId, orderId), now)

/** The service's own JSON shape of an order: what its clients read back. */
export const orderView = (order: AcquiringOrder.Order) => {
  const summary = AcquiringOrder.refundSummary(order)
  return {
    orderId: order.request.merchantOrderNo,
    status: order.status,
    amountFils: order.request.totalAmountFils,
    description: order.request.subject,
    paidFils: summary.acquireAmountFils,
    refundedFils: order.refundedFils,
    pendingRefundFils: order.pendingRefundFils,
    refundableFils: summary.remainRefundAmountFils,
    refunds: order.refunds
      .filter((r) => r.cause === "REQUEST")
      .map((r) => ({ refundId: r.request.refundMerchantOrderNo, amountFils: r.request.amountFils, status: r.status })),
  }
}
export type OrderView = ReturnType<typeof orderView>
