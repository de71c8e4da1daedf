/**
 * The flows of @mizan/order-flows in the shape the flow tests read best:
 * named by merchant order numbers, with the service's numbers passed in, and
 * answering the refund (and its summary) or the order.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import type { Timestamp } from "@mizan/kernel"
import { RefundOrder } from "@mizan/refund"
import { Effect } from "effect"
import * as Flows from "../src/index.ts"

export const requestRefund = (input: {
  readonly merchantId: string
  readonly originMerchantOrderNo: string
  readonly refundOrderNo: string
  readonly request: AcquiringOrder.RefundRequest
  readonly now: Timestamp
}) =>
  Effect.map(
    Flows.requestRefund({
      merchantId: input.merchantId,
      acquiringStream: AcquiringOrder.streamId(input.merchantId, input.originMerchantOrderNo),
      request: input.request,
      now: input.now,
      refundOrderNo: input.refundOrderNo,
    }),
    ({ order, refund }) => ({ refund, refundSummary: AcquiringOrder.refundSummary(order) }),
  )

export const revokeOrder = (input: {
  readonly merchantId: string
  readonly merchantOrderNo: string
  readonly refundOrderNo: string
  readonly now: Timestamp
}) =>
  Flows.revokeOrder({
    merchantId: input.merchantId,
    acquiringStream: AcquiringOrder.streamId(input.merchantId, input.merchantOrderNo),
    now: input.now,
    refundOrderNo: input.refundOrderNo,
  })

export const endRefund = (input: {
  readonly merchantId: string
  readonly refundMerchantOrderNo: string
  readonly cause?: RefundOrder.RefundCause
  readonly outcome: "SUCCESS" | "FAILURE"
  readonly now: Timestamp
}) =>
  Flows.endRefund(
    RefundOrder.streamId(input.merchantId, input.refundMerchantOrderNo, input.cause),
    input.outcome === "SUCCESS"
      ? { _tag: "CompleteRefund" }
      : { _tag: "FailRefund", failCode: "BANK_REJECTED", failDes: "the bank refused the refund" },
    input.now,
  )
