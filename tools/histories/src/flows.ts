/**
 * The multi-stream flows as the gateway runs them, from @mizan/order-flows
 * (one implementation for the gateway and this generator), with the
 * generator's seeded order numbers passed in so a seed gives the same log.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import type { Timestamp } from "@mizan/kernel"
import * as Flows from "@mizan/order-flows"
import { RefundOrder } from "@mizan/refund"
import { Effect } from "effect"

export { placeAcquiringOrder } from "@mizan/order-flows"

/** Refund order: reserve on the acquiring order, then create the refund order (released again on 62017). */
export const requestRefund = (input: {
  readonly merchantId: string
  readonly originMerchantOrderNo: string
  readonly refundOrderNo: string
  readonly request: AcquiringOrder.RefundRequest
  readonly now: Timestamp
}) =>
  Effect.asVoid(
    Flows.requestRefund({
      merchantId: input.merchantId,
      acquiringStream: AcquiringOrder.streamId(input.merchantId, input.originMerchantOrderNo),
      request: input.request,
      now: input.now,
      refundOrderNo: input.refundOrderNo,
    }),
  )

/** Revoke order; answers whether the revoke started a refund (the order was paid). */
export const revokeOrder = (input: {
  readonly merchantId: string
  readonly merchantOrderNo: string
  readonly refundOrderNo: string
  readonly now: Timestamp
}) =>
  Effect.map(
    Flows.revokeOrder({
      merchantId: input.merchantId,
      acquiringStream: AcquiringOrder.streamId(input.merchantId, input.merchantOrderNo),
      now: input.now,
      refundOrderNo: input.refundOrderNo,
    }),
    (order) => order.refunds.some((r) => r.cause === "REVOKE"),
  )

/** The end of a refund: the refund order first, then its reservation on the acquiring order. */
export const endRefund = (input: {
  readonly merchantId: string
  readonly refundMerchantOrderNo: string
  readonly cause: RefundOrder.RefundCause
  readonly outcome: "SUCCESS" | "FAILURE"
  readonly now: Timestamp
}) =>
  Effect.asVoid(
    Flows.endRefund(
      RefundOrder.streamId(input.merchantId, input.refundMerchantOrderNo, input.cause),
      input.outcome === "SUCCESS"
        ? { _tag: "CompleteRefund" }
        : { _tag: "FailRefund", failCode: "BANK_REJECTED", failDes: "the bank refused the refund" },
      input.now,
    ),
  )
