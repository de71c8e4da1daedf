/**
 * decide(command, state): the events a command causes, or the spec's refusal.
 * Pure and total; time comes in on the command.
 *
 * Idempotency is a decision (docs/architecture.md#the-domain): a command whose outcome is already
 * in the state decides nothing, and the caller answers the current order.
 *
 * The codes decided here, by the name a refusal carries (search for it):
 * - create order: 62016 MERCHANT_ORDER_NO_EXIST, 62001 ORDER_PAID,
 *   62003 ORDER_SETTLED, 62002 ORDER_FAILURE (the number is used, other
 *   parameters), 62012 PAYSCENECODE_ILLEGAL, 62008
 *   EXPIREDTIME_LESS_THAN_REQUESTTIME, 62009 EXPIREDTIME_TOO_LATER, 400
 *   INVALID_PARAMETER (sharing rules, deviceId);
 * - payment: 62001, 62002 (closed or expired), 601 RISK_FAIL (changePayer);
 * - settle, cancel: 62015 ORDER_NOT_PAID, 62001, 62003, 62002;
 * - revoke: 62041 ACQUIRE_ORDER_REFUNDED, 62046 REVOKE_REJECTED;
 * - refund reservation: 62017 REFUND_MERCHANT_ORDER_NO_EXIST, 62040
 *   ACQUIRE_ORDER_REVOKED, 62015, 62002, 62038 INVALID_SECONDARY_MERCHANT,
 *   62045 REFUND_REJECTED, 62006 REFUND_AMOUNT_EXCEEDED, and from
 *   refundAllocation.ts 62083 SHARING_MEMBER_NOT_EXIST, 62084
 *   REFUND_SHARING_MEMBER_MISMATCH, 62045 (a list on a withholding order), 62006;
 * - refund end: 62002 (confirm a released refund), 62028 ORDER_SUCCESS;
 * - any command but create on no order: 62004 MERCHANT_ORDER_NO_NOT_EXIST.
 */
import {
  addMs,
  type CodeName,
  dayMs,
  formatAed,
  hourMs,
  isForgotten,
  isPaySceneCode,
  namesNoOrder,
  paySceneCodes,
  type Rejection,
  reject,
  rejectField,
  sumFilsBig,
  type Timestamp,
  withoutUndefined,
} from "@mizan/kernel"
import { Equal, Result } from "effect"
import type {
  CardInfo,
  Command,
  CreateOrder,
  FailPaymentAttempt,
  OrderRequest,
  PayOrder,
  ReleaseRefund,
  ReserveRefund,
  RevokeOrder,
} from "./commands.ts"
import type { CloseReason, Event, OrderPaid } from "./events.ts"
import { accountBalances, allocateEverything, allocateRefund, leftTotalFils } from "./refundAllocation.ts"
import { splitPayment } from "./settlement.ts"
import {
  activeRefunds,
  type CreatedOrder,
  isOrder,
  type Order,
  type PaidOrder,
  type Payment,
  paymentOf,
  refundByOrderNo,
  remainRefundFils,
  requestedRefund,
  type SettledOrder,
  type State,
} from "./state.ts"

/** Create order: "default 2 hours after requestTime". */
export const expiryDefaultMs = 2 * hourMs
/** Create order: "at most 48 hours after requestTime". */
export const expiryMaxMs = 48 * hourMs
/** Refund order: "only for orders created within the last 180 days". */
export const refundWindowMs = 180 * dayMs

export type Decision = Result.Result<ReadonlyArray<Event>, Rejection>

const accept = (...events: ReadonlyArray<Event>): Decision => Result.succeed(events)
const nothing: Decision = Result.succeed([])
const refuse = (code: CodeName, detail: string): Decision => Result.fail(reject(code, detail))
/** A refusal about one field of the request, named as the request names it: the sentence starts with it. */
const refuseField = (code: CodeName, field: string, rest: string): Decision =>
  Result.fail(rejectField(code, field, rest))

export const decide = (command: Command, state: State): Decision => {
  if (command._tag === "CreateOrder") return createOrder(command, state)
  // Streams are keyed by merchant, so another merchant's order is one this merchant does not have.
  if (!isOrder(state) || state.merchantId !== command.merchantId)
    return Result.fail(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "merchantOrderNo"))
  const order = state
  switch (command._tag) {
    case "PayOrder":
      return payOrder(command, order)
    case "FailPaymentAttempt":
      return failPaymentAttempt(command, order)
    case "SettleOrder":
      return settleOrder(order, command.now)
    case "ExpireOrder":
      return order.status === "CREATED" && command.now >= order.expiredTime
        ? accept(closed("ORDER_EXPIRED", "the order expired unpaid", command.now))
        : nothing
    case "CancelOrder":
      return cancelOrder(order, command.now)
    case "RevokeOrder":
      return revokeOrder(command, order)
    case "ReserveRefund":
      return reserveRefund(command, order)
    case "ConfirmRefund":
      return confirmRefund(order, command.refundOrderNo, command.now)
    case "ReleaseRefund":
      return releaseRefund(command, order)
  }
}

const closed = (failCode: CloseReason, failDes: string, closedAt: Timestamp): Event => ({
  _tag: "OrderClosed",
  failCode,
  failDes,
  closedAt,
})

// --- Create order -----------------------------------------------------------

/** Create order, idempotency: a different request under a used merchantOrderNo answers by the order's status. */
const usedOrderNumberCode: Record<Order["status"], CodeName> = {
  CREATED: "MERCHANT_ORDER_NO_EXIST", // 62016
  PAID_SUCCESS: "ORDER_PAID", // 62001
  SETTLED: "ORDER_SETTLED", // 62003
  FAILURE: "ORDER_FAILURE", // 62002
}

/** Create order and refund: a secondaryMerchantId comes with the deviceId it was used on. */
const deviceIdRequired = refuseField("INVALID_PARAMETER", "deviceId", "is required with secondaryMerchantId")

/** The split payment rules of create order's sharingParamList, or undefined when they hold. */
const sharingRuleBroken = (request: OrderRequest): Rejection | undefined => {
  const broken = (rest: string) => rejectField("INVALID_PARAMETER", "sharingParamList", rest)
  const items = request.sharingParamList ?? []
  const seqIds = items.map((s) => s.sharingIdentitySeqId).sort((a, b) => a - b)
  if (!seqIds.every((id, i) => id === i + 1))
    return broken("sharingIdentitySeqId values must be 1, 2, 3 and so on, each once")
  const sharingFils = sumFilsBig(items.map((s) => s.sharingAmountFils))
  if (sharingFils > BigInt(request.totalAmountFils))
    return broken(
      `sharingAmountFils values sum to ${formatAed(sharingFils)}, more than totalAmountFils (${formatAed(request.totalAmountFils)})`,
    )
  if (items.filter((s) => s.withholdAndRemitFee === true).length > 1)
    return broken("may have at most one item with withholdAndRemitFee true")
  return undefined
}

const createOrder = (command: CreateOrder, state: State): Decision => {
  const { request, requestTime } = command
  if (isOrder(state)) {
    // "requestTime is not compared for idempotency"; the first orderNo and requestTime stay.
    if (Equal.equals(state.request, request)) return nothing
    return refuseField(
      usedOrderNumberCode[state.status],
      "merchantOrderNo",
      `is already used by an order in status ${state.status} with other parameters`,
    )
  }
  if (!isPaySceneCode(request.paySceneCode))
    return refuseField("PAYSCENECODE_ILLEGAL", "paySceneCode", `must be one of ${paySceneCodes.join(", ")}`)
  const expiredTime = request.expiredTime ?? addMs(requestTime, expiryDefaultMs)
  if (expiredTime <= requestTime)
    return refuseField("EXPIREDTIME_LESS_THAN_REQUESTTIME", "expiredTime", "must be after requestTime")
  if (expiredTime - requestTime > expiryMaxMs)
    return refuseField("EXPIREDTIME_TOO_LATER", "expiredTime", "must be at most 48 hours after requestTime")
  if (request.secondaryMerchantId !== undefined && request.deviceId === undefined) return deviceIdRequired
  const sharingBroken = sharingRuleBroken(request)
  if (sharingBroken !== undefined) return Result.fail(sharingBroken)
  return accept({
    _tag: "OrderCreated",
    merchantId: command.merchantId,
    orderNo: command.orderNo,
    requestTime,
    createdAt: command.now,
    request,
    expiredTime,
    payeeMid: request.payeeMid ?? command.merchantId,
    paySceneParams: {
      ...request.paySceneParams,
      changePayer: request.paySceneParams?.changePayer ?? "true",
      oneTimePayment: request.paySceneParams?.oneTimePayment ?? "false",
    },
  })
}

// --- Payment ----------------------------------------------------------------

/** Why this payer may not pay this CREATED order now, if anything. */
const closedToPayer = (order: CreatedOrder, payerMid: string, now: Timestamp): Rejection | undefined => {
  if (now >= order.expiredTime)
    return reject("ORDER_FAILURE", "the order expired: payment can no longer be completed (expiredTime has passed)")
  // changePayer "true": "other users fail when they try to pay after the first user scanned".
  // A forgotten bound payer reads "[forgotten]", which a payer id may spell too: then nobody matches it.
  if (
    order.paySceneParams.changePayer === "true" &&
    order.boundPayerMid !== undefined &&
    (isForgotten(order.boundPayerMid) || order.boundPayerMid !== payerMid)
  )
    return reject("RISK_FAIL", "another payer already started paying this order (changePayer is true)")
  return undefined
}

/**
 * The card fields the spec returns, picked one by one: whatever else a caller
 * put beside them (a card number by mistake) never reaches an event.
 */
const cardInfoOnly = ({ brand, cardId, last4, cardType, expMonth, expYear }: CardInfo): CardInfo => ({
  brand,
  last4,
  cardType,
  expMonth,
  expYear,
  ...withoutUndefined({ cardId }),
})

const paidEvent = (command: PayOrder, order: Order): OrderPaid => ({
  _tag: "OrderPaid",
  attemptId: command.attemptId,
  paidTime: command.now,
  paidAmountFils: command.paidAmountFils,
  payChannel: command.payChannel,
  payerFeeFils: command.payerFeeFils,
  feePlan: command.feePlan,
  payer: command.payer,
  // "cardInfo: returned only for scene DIRECTPAY".
  ...(command.cardInfo !== undefined && order.request.paySceneCode === "DIRECTPAY"
    ? { cardInfo: cardInfoOnly(command.cardInfo) }
    : {}),
  settlement: splitPayment(command.paidAmountFils, order.request.sharingParamList ?? [], command.feePlan),
})

/** A payment's terms, its time aside: what tells a repeated report from another payment. */
const paymentTerms = ({ paidTime: _, ...terms }: Payment) => terms

const payOrder = (command: PayOrder, order: Order): Decision => {
  const paid = paidEvent(command, order)
  if (order.status !== "CREATED") {
    const { _tag, ...payment } = paid
    const recorded = paymentOf(order)
    if (recorded !== undefined && Equal.equals(paymentTerms(recorded), paymentTerms(payment))) return nothing
    return order.status === "FAILURE"
      ? refuse("ORDER_FAILURE", "the order is closed and can no longer be paid")
      : refuse("ORDER_PAID", "the order is already paid")
  }
  if (order.failedAttempts.some((a) => a.attemptId === command.attemptId))
    return refuse("INVALID_PARAMETER", "this payment attempt already failed")
  const refusal = closedToPayer(order, command.payer.payerMid, command.now)
  if (refusal !== undefined) return Result.fail(refusal)
  // paymentInfo.paidAmount "differs from the order amount when a discount is used": it is never more.
  if (command.paidAmountFils > order.request.totalAmountFils)
    return refuseField("INVALID_PARAMETER", "paidAmountFils", "must not be more than totalAmountFils")
  return accept(paid)
}

const failPaymentAttempt = (command: FailPaymentAttempt, order: Order): Decision => {
  if (order.failedAttempts.some((a) => a.attemptId === command.attemptId)) return nothing
  if (order.status === "FAILURE") return refuse("ORDER_FAILURE", "the order is closed")
  if (order.status !== "CREATED") return refuse("ORDER_PAID", "the order is already paid")
  const refusal = closedToPayer(order, command.payerMid, command.now)
  if (refusal !== undefined) return Result.fail(refusal)
  const failed: Event = {
    _tag: "PaymentAttemptFailed",
    attemptId: command.attemptId,
    payerMid: command.payerMid,
    failCode: command.failCode,
    failDes: command.failDes,
    failedAt: command.now,
  }
  // oneTimePayment "true": "the order may be paid only once; a failed first attempt blocks further attempts".
  return order.paySceneParams.oneTimePayment === "true"
    ? accept(failed, closed("PAYMENT_FAILED", "the one-time payment attempt failed", command.now))
    : accept(failed)
}

// --- Settlement, cancel -----------------------------------------------------

const settleOrder = (order: Order, now: Timestamp): Decision => {
  switch (order.status) {
    case "PAID_SUCCESS":
      return accept({ _tag: "OrderSettled", settledAt: now })
    case "SETTLED":
      return nothing
    case "CREATED":
      return refuse("ORDER_NOT_PAID", "an unpaid order cannot be settled")
    case "FAILURE":
      return refuse("ORDER_FAILURE", "a failed order cannot be settled")
  }
}

const cancelOrder = (order: Order, now: Timestamp): Decision => {
  switch (order.status) {
    case "CREATED":
      return accept(closed("ORDER_CANCELLED", "the merchant cancelled the unpaid order", now))
    case "FAILURE":
      return nothing
    case "PAID_SUCCESS":
      return refuse("ORDER_PAID", "the order is already paid, cancellation is not supported: refund or revoke it")
    case "SETTLED":
      return refuse("ORDER_SETTLED", "the order is already settled, cancellation is not supported: refund it")
  }
}

// --- Revoke -----------------------------------------------------------------

const withinRefundWindow = (order: Order, now: Timestamp): boolean => now - order.requestTime <= refundWindowMs

/**
 * Revoke order: "If the transaction succeeded the service starts a refund;
 * otherwise the order is closed." A paid order reserves a full refund here
 * (the gateway then creates its refund order, see the README) and becomes
 * revoked: FAILURE when it was not settled yet, SETTLED unchanged when it was.
 */
const revokeOrder = (command: RevokeOrder, order: Order): Decision => {
  if (order.revoked || order.status === "FAILURE") return nothing
  if (order.status === "CREATED") return accept(closed("ORDER_REVOKED", "the unpaid order was revoked", command.now))
  if (activeRefunds(order).length > 0)
    return refuse("ACQUIRE_ORDER_REFUNDED", "the order already has a refund, so it cannot be revoked")
  if (!withinRefundWindow(order, command.now))
    return refuse("REVOKE_REJECTED", "the order is older than 180 days, so its payment can no longer be refunded")
  if (refundByOrderNo(order, command.refundOrderNo) !== undefined)
    return refuse("INVALID_PARAMETER", "refundOrderNo is already used by another refund of this order")
  const balances = accountBalances(order.payment, activeRefunds(order))
  return accept(
    {
      _tag: "RefundReserved",
      refundOrderNo: command.refundOrderNo,
      cause: "REVOKE",
      request: {
        refundMerchantOrderNo: order.request.merchantOrderNo,
        amountFils: leftTotalFils(balances),
        refundSharingAmount: true,
        reason: "revoke",
      },
      allocation: allocateEverything(balances),
      reservedAt: command.now,
    },
    { _tag: "OrderRevoked", revokedAt: command.now },
  )
}

// --- Refunds ----------------------------------------------------------------

/** The order as a paid one that takes refunds now, or why it does not. */
const refundable = (command: ReserveRefund, order: Order): Result.Result<PaidOrder | SettledOrder, Rejection> => {
  const { request } = command
  if (order.revoked) return Result.fail(reject("ACQUIRE_ORDER_REVOKED", "the order has been revoked"))
  if (order.status === "CREATED") return Result.fail(reject("ORDER_NOT_PAID", "the order is not paid"))
  if (order.status === "FAILURE") return Result.fail(reject("ORDER_FAILURE", "the order is a failed order"))
  if (request.secondaryMerchantId !== undefined && request.secondaryMerchantId !== order.request.secondaryMerchantId)
    return Result.fail(
      rejectField("INVALID_SECONDARY_MERCHANT", "secondaryMerchantId", "differs from the one of the original order"),
    )
  if (!withinRefundWindow(order, command.now))
    return Result.fail(
      reject("REFUND_REJECTED", "refunds are only possible for orders created within the last 180 days"),
    )
  return Result.succeed(order)
}

const reserveRefund = (command: ReserveRefund, order: Order): Decision => {
  const { request } = command
  const existing = requestedRefund(order, request.refundMerchantOrderNo)
  if (existing !== undefined)
    return Equal.equals(existing.request, request)
      ? nothing
      : Result.fail(
          rejectField(
            "REFUND_MERCHANT_ORDER_NO_EXIST",
            "refundMerchantOrderNo",
            "is already used by a refund with other parameters",
          ),
        )
  if (request.secondaryMerchantId !== undefined && request.deviceId === undefined) return deviceIdRequired
  if (refundByOrderNo(order, command.refundOrderNo) !== undefined)
    return refuse("INVALID_PARAMETER", "refundOrderNo is already used by another refund of this order")
  const checked = refundable(command, order)
  if (Result.isFailure(checked)) return Result.fail(checked.failure)
  const paid = checked.success
  // "at most the original amount minus refunded and pending refunds"
  const remainFils = remainRefundFils(paid)
  if (request.amountFils > remainFils)
    return refuseField(
      "REFUND_AMOUNT_EXCEEDED",
      "amountFils",
      `${formatAed(request.amountFils)} is more than the refundable ${formatAed(remainFils)} (paid minus refunded minus pending)`,
    )
  const allocation = allocateRefund(
    request,
    paid.request.sharingParamList ?? [],
    accountBalances(paid.payment, activeRefunds(paid)),
  )
  return Result.map(allocation, (allocation) => [
    {
      _tag: "RefundReserved",
      refundOrderNo: command.refundOrderNo,
      cause: "REQUEST",
      request,
      allocation,
      reservedAt: command.now,
    } as const,
  ])
}

const confirmRefund = (order: Order, refundOrderNo: string, now: Timestamp): Decision => {
  const refund = refundByOrderNo(order, refundOrderNo)
  if (refund === undefined) return refuse("INVALID_PARAMETER", "no refund of this order has this refundOrderNo")
  switch (refund.status) {
    case "PENDING":
      return accept({ _tag: "RefundConfirmed", refundOrderNo, confirmedAt: now })
    case "SUCCEEDED":
      return nothing
    case "RELEASED":
      return refuse("ORDER_FAILURE", "the refund failed and was released; it cannot succeed")
  }
}

const releaseRefund = (command: ReleaseRefund, order: Order): Decision => {
  const refund = refundByOrderNo(order, command.refundOrderNo)
  if (refund === undefined) return refuse("INVALID_PARAMETER", "no refund of this order has this refundOrderNo")
  switch (refund.status) {
    case "PENDING":
      return accept({
        _tag: "RefundReleased",
        refundOrderNo: command.refundOrderNo,
        reason: command.reason,
        releasedAt: command.now,
      })
    case "RELEASED":
      return nothing
    case "SUCCEEDED":
      return refuse("ORDER_SUCCESS", "the refund already succeeded; it cannot be released")
  }
}
