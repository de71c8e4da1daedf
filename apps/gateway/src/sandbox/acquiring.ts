/**
 * Sandbox helpers for payments and refunds: pay or fail an order, settle
 * it, settle, complete or fail a refund, as a payer, a channel or a bank
 * would. Each answers the order (or refund) as the query operation does.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import { BoundedString, PositiveMoneyFromWire, RequiredString, withoutUndefined } from "@mizan/kernel"
import { acquiringStreamOf, endRefund, onOrder, readOrderExpiringIfDue, refundStreamOf } from "@mizan/order-flows"
import { toWireAcquireOrder, toWireRefundOrder, toWireRefundSummary } from "@mizan/order-views"
import {
  AcquireOrderResponse,
  CardInfoRequest,
  exactlyOneOf,
  GetRefundResponse,
  MerchantOrderNo,
  OrderNo,
  withDomainNames,
} from "@mizan/protocol"
import { Effect, Schema } from "effect"
import type { HandlerServices } from "../handlers/services.ts"
import { failPayment, payOrder } from "../payerOutcomes.ts"
import { type ApiOperation, type Call, operation } from "../pipeline/pipeline.ts"

const orderName = {
  merchantOrderNo: Schema.optionalKey(MerchantOrderNo),
  orderNo: Schema.optionalKey(OrderNo),
}
const OrderNamed = Schema.Struct(orderName).check(exactlyOneOf("merchantOrderNo", "orderNo"))

/** Decoded, the paid amount is named in fils as the domain names it. */
const PayOrderRequest = withDomainNames(
  Schema.Struct({
    ...orderName,
    /** Below totalAmount when a discount applied; the full amount by default. */
    paidAmount: Schema.optionalKey(PositiveMoneyFromWire),
    payChannel: Schema.optionalKey(RequiredString(32)),
    payerMid: Schema.optionalKey(RequiredString(64)),
    cardInfo: Schema.optionalKey(CardInfoRequest),
  }).check(exactlyOneOf("merchantOrderNo", "orderNo")),
  { paidAmount: "paidAmountFils" },
)

const FailPaymentRequest = Schema.Struct({
  ...orderName,
  payerMid: Schema.optionalKey(RequiredString(64)),
  failCode: Schema.optionalKey(RequiredString(64)),
  failDes: Schema.optionalKey(BoundedString(256)),
}).check(exactlyOneOf("merchantOrderNo", "orderNo"))

const refundName = {
  refundMerchantOrderNo: Schema.optionalKey(MerchantOrderNo),
  orderNo: Schema.optionalKey(OrderNo),
}
const RefundNamed = Schema.Struct(refundName).check(exactlyOneOf("refundMerchantOrderNo", "orderNo"))
const FailRefundRequest = Schema.Struct({
  ...refundName,
  failCode: Schema.optionalKey(RequiredString(64)),
  failDes: Schema.optionalKey(BoundedString(256)),
}).check(exactlyOneOf("refundMerchantOrderNo", "orderNo"))

/** The merchantOrderNo behind either name, read off the order (62004 / 62035 when there is none). */
const merchantOrderNoOf = Effect.fn("Gateway.merchantOrderNoOf")(function* (
  call: Call,
  name: { merchantOrderNo?: string; orderNo?: string },
) {
  const streamId = yield* acquiringStreamOf(call.merchant.partnerId, name)
  const order = yield* readOrderExpiringIfDue(call.merchant.partnerId, streamId, call.now)
  return order.request.merchantOrderNo
})

const refundAnswer = (call: Call, refund: Parameters<typeof toWireRefundOrder>[0]) =>
  Effect.map(
    readOrderExpiringIfDue(
      call.merchant.partnerId,
      AcquiringOrder.streamId(call.merchant.partnerId, refund.details.originMerchantOrderNo),
      call.now,
    ),
    (order) => ({ refundOrder: toWireRefundOrder(refund), refundSummary: toWireRefundSummary(order) }),
  )

export const acquiringSandboxOperations: Readonly<Record<string, ApiOperation<HandlerServices>>> = {
  "/payOrder": operation(
    PayOrderRequest,
    AcquireOrderResponse,
    (call, request) =>
      Effect.gen(function* () {
        const merchantOrderNo = yield* merchantOrderNoOf(call, request)
        const { payerMid, ...details } = request
        const order = yield* payOrder(
          call.merchant,
          merchantOrderNo,
          call.now,
          withoutUndefined({ ...details, payer: payerMid === undefined ? undefined : { payerMid } }),
        )
        return { acquireOrder: toWireAcquireOrder(order) }
      }),
    false,
  ),
  "/failPayment": operation(
    FailPaymentRequest,
    AcquireOrderResponse,
    (call, request) =>
      Effect.gen(function* () {
        const merchantOrderNo = yield* merchantOrderNoOf(call, request)
        const order = yield* failPayment(call.merchant, merchantOrderNo, call.now, request)
        return { acquireOrder: toWireAcquireOrder(order) }
      }),
    false,
  ),
  "/settleOrder": operation(
    OrderNamed,
    AcquireOrderResponse,
    (call, request) =>
      Effect.gen(function* () {
        const streamId = yield* acquiringStreamOf(call.merchant.partnerId, request)
        const order = yield* onOrder(streamId, {
          _tag: "SettleOrder",
          merchantId: call.merchant.partnerId,
          now: call.now,
        })
        return { acquireOrder: toWireAcquireOrder(order) }
      }),
    false,
  ),
  "/settleRefund": operation(
    RefundNamed,
    GetRefundResponse,
    (call, request) =>
      Effect.flatMap(refundStreamOf(call.merchant.partnerId, request), (stream) =>
        Effect.flatMap(endRefund(stream, { _tag: "SettleRefund" }, call.now), (refund) => refundAnswer(call, refund)),
      ),
    false,
  ),
  "/completeRefund": operation(
    RefundNamed,
    GetRefundResponse,
    (call, request) =>
      Effect.flatMap(refundStreamOf(call.merchant.partnerId, request), (stream) =>
        Effect.flatMap(endRefund(stream, { _tag: "CompleteRefund" }, call.now), (refund) => refundAnswer(call, refund)),
      ),
    false,
  ),
  "/failRefund": operation(
    FailRefundRequest,
    GetRefundResponse,
    (call, request) =>
      Effect.flatMap(refundStreamOf(call.merchant.partnerId, request), (stream) =>
        Effect.flatMap(
          endRefund(
            stream,
            {
              _tag: "FailRefund",
              failCode: request.failCode ?? "REFUND_FAILED",
              failDes: request.failDes ?? "the bank returned the refund",
            },
            call.now,
          ),
          (refund) => refundAnswer(call, refund),
        ),
      ),
    false,
  ),
}
