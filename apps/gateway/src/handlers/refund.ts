/** The refund operations (spec: 4 refund; get refund from the wire conventions). */
import { AcquiringOrder } from "@mizan/acquiring"
import { reject, withoutUndefined } from "@mizan/kernel"
import {
  acquiringStreamOf,
  currentRefund,
  readOrderExpiringIfDue,
  refundStreamOf,
  requestRefund,
} from "@mizan/order-flows"
import { toWireRefundOrder, toWireRefundSummary } from "@mizan/order-views"
import type { DecodedRequestOf } from "@mizan/protocol"
import { Effect } from "effect"
import type { Handlers } from "../pipeline/pipeline.ts"
import { digestSharingList } from "../pipeline/sensitive.ts"
import type { HandlerServices } from "./services.ts"

const refundRequestOf = Effect.fnUntraced(function* (request: DecodedRequestOf<"/acquire2/refund/placeOrder">) {
  // The origin names the order refunded, which the handler finds; the rest is the refund's own request.
  // The name the refund's number came under is no parameter: a repeat under the other name is the same refund.
  const {
    originMerchantOrderNo: _m,
    originOrderNo: _o,
    refundMerchantOrderNoSentAs: _sentAs,
    sharingParamList,
    ...named
  } = request
  return withoutUndefined({
    ...named,
    sharingParamList: sharingParamList && (yield* digestSharingList("/acquire2/refund/placeOrder", sharingParamList)),
  }) satisfies AcquiringOrder.RefundRequest
})

export const refundHandlers: Pick<
  Handlers<HandlerServices>,
  "/acquire2/refund/placeOrder" | "/acquire2/refund/getOrder"
> = {
  /**
   * Reserve against the acquiring order (the refundable balance lives on its
   * stream), then create the refund order from the reservation.
   */
  "/acquire2/refund/placeOrder": (call, request) =>
    Effect.gen(function* () {
      const merchantId = call.merchant.partnerId
      const devices = call.merchant.config.devices
      if (request.deviceId !== undefined && devices !== undefined && !devices.includes(request.deviceId))
        return yield* Effect.fail(
          reject(
            "MERCHANT_DEVICE_NOT_EXIST",
            `bizContent.deviceId ${request.deviceId} is not a registered device of this merchant`,
          ),
        )
      // The order refunded is named by its own fields (merchantOrderNo, orderNo): a refusal about
      // them names them so, and the pipeline answers with the origin fields the merchant sent.
      const acquiringStream = yield* acquiringStreamOf(
        merchantId,
        withoutUndefined({ merchantOrderNo: request.originMerchantOrderNo, orderNo: request.originOrderNo }),
      )
      const { order, refund } = yield* requestRefund({
        merchantId,
        acquiringStream,
        request: yield* refundRequestOf(request),
        now: call.now,
      })
      return { refundOrder: toWireRefundOrder(refund), refundSummary: toWireRefundSummary(order) }
    }),

  "/acquire2/refund/getOrder": (call, request) =>
    Effect.gen(function* () {
      const merchantId = call.merchant.partnerId
      const refund = yield* currentRefund(yield* refundStreamOf(merchantId, request))
      const order = yield* readOrderExpiringIfDue(
        merchantId,
        AcquiringOrder.streamId(merchantId, refund.details.originMerchantOrderNo),
        call.now,
      )
      return { refundOrder: toWireRefundOrder(refund), refundSummary: toWireRefundSummary(order) }
    }),
}
