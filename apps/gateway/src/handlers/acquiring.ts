/**
 * The acquiring operations (spec: 1 create order, 2 get order and payer,
 * 5 revoke; cancel from the wire conventions). The domain decides; these
 * handlers turn the wire into commands, run the flows of orders.ts and map
 * the state back.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import { reject, withoutUndefined } from "@mizan/kernel"
import {
  acquiringStreamOf,
  MemberDirectory,
  newOrderNo,
  onOrder,
  placeAcquiringOrder,
  readOrderExpiringIfDue,
  revokeOrder,
} from "@mizan/order-flows"
import { toWireAcquireOrder } from "@mizan/order-views"
import type { DecodedRequestOf } from "@mizan/protocol"
import { Effect } from "effect"
import { payPagePath, payTokenFor } from "../payToken.ts"
import { ApiSettings } from "../pipeline/apiSettings.ts"
import type { Call, Handlers } from "../pipeline/pipeline.ts"
import { digestField, digestSharingList } from "../pipeline/sensitive.ts"
import type { HandlerServices } from "./services.ts"

type CreateOrderRequest = DecodedRequestOf<"/acquire2/placeOrder">
/**
 * `payeeMid`, "another merchant as payee", is not supported: an order is paid
 * to the merchant that creates it. Naming that merchant is the default and
 * is accepted; any other id is refused rather than silently ignored.
 */
const checkPayee = (call: Call, payeeMid: string | undefined) =>
  payeeMid === undefined || payeeMid === call.merchant.partnerId
    ? Effect.void
    : Effect.fail(
        reject(
          "INVALID_PARAMETER",
          "bizContent.payeeMid must be your own Partner-Id or absent: paying another merchant is not supported",
        ),
      )

type SharingItem = NonNullable<AcquiringOrder.OrderRequest["sharingParamList"]>[number]

/**
 * Each sharing item with `sharingMid`, "the member id returned when the
 * identity matches an existing member", looked up in the member directory.
 * An identity that matches no member is no reason to refuse the order (the
 * spec's 62083 SHARING_MEMBER_NOT_EXIST belongs to refunds): its sharingMid
 * stays empty. Neither does a directory that cannot answer (production ships
 * none): the order is taken and names no member.
 */
const withSharingMids = (list: ReadonlyArray<SharingItem>) =>
  Effect.flatMap(MemberDirectory, (directory) =>
    Effect.forEach(list, (item) =>
      directory.find(item.sharingIdentityType, item.sharingIdentity).pipe(
        Effect.map((found) =>
          found._tag === "MemberFound" && found.memberId !== undefined ? { ...item, sharingMid: found.memberId } : item,
        ),
        Effect.orElseSucceed(() => item),
      ),
    ),
  )

/**
 * Create order as the domain's OrderRequest. The wire's schema has already
 * named it as the domain does (amounts in fils); what is left is effectful:
 * the identities digested with the service's key, each sharing item's member
 * looked up, and expiredTime moved to the merchant's clock.
 */
const orderRequestOf = Effect.fnUntraced(function* (call: Call, request: CreateOrderRequest) {
  const { expiredTime, paySceneParams, sharingParamList, ...named } = request
  const eid =
    paySceneParams?.eid === undefined
      ? undefined
      : yield* digestField("/acquire2/placeOrder", "paySceneParams.eid", paySceneParams.eid)
  return withoutUndefined({
    ...named,
    // Sent on the merchant's own clock, compared with requestTime on the same (sandbox) clock.
    expiredTime: expiredTime && call.toMerchantTime(expiredTime),
    paySceneParams: paySceneParams && withoutUndefined({ ...paySceneParams, eid }),
    sharingParamList:
      sharingParamList && (yield* withSharingMids(yield* digestSharingList("/acquire2/placeOrder", sharingParamList))),
  }) satisfies AcquiringOrder.OrderRequest
})

/**
 * interactionParams, "returned only when the order status is CREATED and
 * depends on the scene": a link to the hosted pay page for browser scenes,
 * an app deep link for app scenes, a 3-D Secure form for DIRECTPAY.
 */
const interactionParamsOf = (order: AcquiringOrder.Order, publicBaseUrl: string, token: string) => {
  if (order.status !== "CREATED") return undefined
  const tokenUrl = `${publicBaseUrl}${payPagePath(token)}`
  switch (order.request.paySceneCode) {
    // "Scenes AUTODEBIT and QRPAY have no interactionParams": the merchant
    // debits an agreement, or the payer scans the merchant's own code.
    case "AUTODEBIT":
    case "QRPAY":
      return undefined
    // "Link to the checkout of another e-wallet the payer chose": a deep link alone. Its token is
    // the pay page's, so a sandbox tester opens the same order at tokenUrl's address.
    case "EWALLET":
      return { deepLink: `mizan://pay?token=${encodeURIComponent(token)}` }
    case "DIRECTPAY":
      return {
        threeDSecureDom: `<form id="threeDSecure" method="POST" action="${tokenUrl}/3ds"><input type="hidden" name="token" value="${token}"/></form><script>document.getElementById("threeDSecure").submit()</script>`,
      }
    default:
      return { tokenUrl }
  }
}

const answerOrder = (order: AcquiringOrder.Order) => ({ acquireOrder: toWireAcquireOrder(order) })

const revokeFailure = (call: Call, error: { readonly message: string }) =>
  Effect.andThen(
    Effect.logError(`${call.traceCode} revoke failed`, error.message),
    Effect.fail(reject("REVOKE_FAILURE", "the revoke could not be completed: retry it, quoting the traceCode")),
  )

const orderOf = (call: Call, name: { merchantOrderNo?: string; orderNo?: string }) =>
  Effect.flatMap(acquiringStreamOf(call.merchant.partnerId, name), (streamId) =>
    Effect.map(readOrderExpiringIfDue(call.merchant.partnerId, streamId, call.now), (order) => ({ order, streamId })),
  )

export const acquiringHandlers: Pick<
  Handlers<HandlerServices>,
  | "/acquire2/placeOrder"
  | "/acquire2/getOrder"
  | "/acquire2/getOrderPayer"
  | "/acquire2/revokeOrder"
  | "/acquire2/cancelOrder"
> = {
  "/acquire2/placeOrder": (call, request) =>
    Effect.gen(function* () {
      const gateway = yield* ApiSettings
      const merchantId = call.merchant.partnerId
      yield* checkPayee(call, request.payeeMid)
      const streamId = AcquiringOrder.streamId(merchantId, request.merchantOrderNo)
      const order = yield* placeAcquiringOrder(streamId, {
        _tag: "CreateOrder",
        merchantId,
        now: call.now,
        orderNo: newOrderNo(call.now, "acquiring"),
        requestTime: call.requestTime,
        request: yield* orderRequestOf(call, request),
      })
      const token = payTokenFor({ merchantId, merchantOrderNo: request.merchantOrderNo }, gateway.servicePrivateKey)
      const interactionParams = interactionParamsOf(order, gateway.publicBaseUrl, token)
      return interactionParams === undefined ? answerOrder(order) : { ...answerOrder(order), interactionParams }
    }),

  "/acquire2/getOrder": (call, request) => Effect.map(orderOf(call, request), ({ order }) => answerOrder(order)),

  "/acquire2/getOrderPayer": (call, request) =>
    Effect.flatMap(orderOf(call, request), ({ order }) =>
      order.status === "CREATED" || order.payment === undefined
        ? Effect.fail(reject("ORDER_NOT_PAID", "the order has no payer: it was not paid"))
        : Effect.succeed({ payer: order.payment.payer }),
    ),

  /**
   * Revoke: the order first, then (for a paid order) the refund order its
   * full refund stands for. A failure of the store on the way answers the
   * spec's 62039 REVOKE_FAILURE ("internal error") rather than a bare system
   * error: revoking is idempotent, so the merchant's retry completes it.
   */
  "/acquire2/revokeOrder": (call, request) =>
    Effect.gen(function* () {
      const merchantId = call.merchant.partnerId
      const acquiringStream = yield* acquiringStreamOf(merchantId, request)
      const order = yield* revokeOrder({ merchantId, acquiringStream, now: call.now })
      return answerOrder(order)
    }).pipe(
      Effect.catchTags({
        StoreError: (error) => revokeFailure(call, error),
        VersionConflict: (error) => revokeFailure(call, error),
      }),
    ),

  "/acquire2/cancelOrder": (call, request) =>
    Effect.gen(function* () {
      const streamId = yield* acquiringStreamOf(call.merchant.partnerId, request)
      const order = yield* onOrder(streamId, {
        _tag: "CancelOrder",
        merchantId: call.merchant.partnerId,
        now: call.now,
      })
      return answerOrder(order)
    }),
}
