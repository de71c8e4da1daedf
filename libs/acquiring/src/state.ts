/**
 * The state of one acquiring order stream: no order yet, or an order in one
 * of the spec's statuses (CREATED, PAID_SUCCESS, SETTLED, FAILURE).
 */
import { type Fils, fils, type Timestamp, zeroFils } from "@mizan/kernel"
import type { CloseReason, EffectivePaySceneParams, OrderPaid, RecordedOrderRequest, RefundReserved } from "./events.ts"

/** A payment as recorded: its terms and how the paid amount is split. */
export type Payment = Omit<OrderPaid, "_tag">

export interface FailedAttempt {
  readonly attemptId: string
  readonly payerMid: string
  readonly failCode: string
  readonly failDes: string
  readonly failedAt: Timestamp
}

/** PENDING counts against the refundable balance until the refund order succeeds or fails. */
export type ReservationStatus = "PENDING" | "SUCCEEDED" | "RELEASED"

export interface RefundReservation extends Omit<RefundReserved, "_tag"> {
  readonly status: ReservationStatus
  readonly confirmedAt?: Timestamp
  readonly releasedAt?: Timestamp
  readonly releaseReason?: string
}

export interface Failure {
  readonly failCode: CloseReason
  readonly failDes: string
  readonly failedAt: Timestamp
}

interface OrderCore {
  readonly merchantId: string
  readonly orderNo: string
  /** The first request's time: the creation time the spec reports. */
  readonly requestTime: Timestamp
  readonly createdAt: Timestamp
  /** What the merchant sent, as it came: subject, totalAmountFils, sharingParamList, ... */
  readonly request: RecordedOrderRequest
  readonly expiredTime: Timestamp
  readonly payeeMid: string
  readonly paySceneParams: EffectivePaySceneParams
  /** The spec's `revoked`: the order was paid and then revoked. */
  readonly revoked: boolean
  /** The payer of the first attempt; with changePayer "true" no one else may pay. */
  readonly boundPayerMid?: string
  readonly failedAttempts: ReadonlyArray<FailedAttempt>
  readonly refunds: ReadonlyArray<RefundReservation>
  /** Refunds whose refund order succeeded. */
  readonly refundedFils: Fils
  /** Refunds reserved whose refund order has not ended yet. */
  readonly pendingRefundFils: Fils
  /** Events that did not fit the state they were applied to (only a damaged history has any). */
  readonly anomalies: ReadonlyArray<string>
}

export interface CreatedOrder extends OrderCore {
  readonly status: "CREATED"
}
export interface PaidOrder extends OrderCore {
  readonly status: "PAID_SUCCESS"
  readonly payment: Payment
}
export interface SettledOrder extends OrderCore {
  readonly status: "SETTLED"
  readonly payment: Payment
  readonly settledAt: Timestamp
}
export interface FailedOrder extends OrderCore {
  readonly status: "FAILURE"
  readonly failure: Failure
  /** Present when a paid order was revoked before settlement. */
  readonly payment?: Payment
}

export type Order = CreatedOrder | PaidOrder | SettledOrder | FailedOrder
export type OrderStatus = Order["status"]

export interface NoOrder {
  readonly status: "ABSENT"
  readonly anomalies: ReadonlyArray<string>
}

export type State = NoOrder | Order

export const initialState: State = { status: "ABSENT", anomalies: [] }

export const isOrder = (state: State): state is Order => state.status !== "ABSENT"

/** A refund the merchant requested under this number, if any (a revoke's refund is not one). */
export const requestedRefund = (order: Order, refundMerchantOrderNo: string): RefundReservation | undefined =>
  order.refunds.find((r) => r.cause === "REQUEST" && r.request.refundMerchantOrderNo === refundMerchantOrderNo)

export const refundByOrderNo = (order: Order, refundOrderNo: string): RefundReservation | undefined =>
  order.refunds.find((r) => r.refundOrderNo === refundOrderNo)

/** Refunds pending or succeeded: the ones that count against the paid amount. */
export const activeRefunds = (order: Order): ReadonlyArray<RefundReservation> =>
  order.refunds.filter((r) => r.status !== "RELEASED")

/** The payment of a paid (or paid and revoked) order. */
export const paymentOf = (order: Order): Payment | undefined => (order.status === "CREATED" ? undefined : order.payment)

/** The spec's refundSummary.acquireAmount: what the payer actually paid (0 while unpaid). */
export const acquireAmountFils = (order: Order): Fils => paymentOf(order)?.paidAmountFils ?? zeroFils

/**
 * The spec's refundSummary.remainRefundAmount: "the original amount minus
 * refunded and pending refunds". Never below zero, even on a damaged history
 * (where `invariants` reports the overdraft).
 */
export const remainRefundFils = (order: Order): Fils => {
  const remain = acquireAmountFils(order) - order.refundedFils - order.pendingRefundFils
  return remain > 0 ? fils(remain) : zeroFils
}

export interface RefundSummary {
  readonly acquireAmountFils: Fils
  readonly remainRefundAmountFils: Fils
}

export const refundSummary = (order: Order): RefundSummary => ({
  acquireAmountFils: acquireAmountFils(order),
  remainRefundAmountFils: remainRefundFils(order),
})
