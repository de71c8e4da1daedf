/**
 * evolve(state, event): the state after one event. Total: an event that does
 * not fit the state (which only a damaged or hand-edited history can hold,
 * since decide never emits one) leaves the state as it was and is written
 * down in `anomalies`, which `invariants` reports to the tests and the audit.
 */
import { addFils, subtractFils, zeroFils } from "@mizan/kernel"
import type { Event } from "./events.ts"
import { isOrder, type Order, type RefundReservation, type State } from "./state.ts"

const anomaly = <S extends State>(state: S, what: string): S => ({ ...state, anomalies: [...state.anomalies, what] })

/** An event that does not fit the order's status (a closure per call would cost the audit's replay an allocation an event). */
const misfit = (order: Order, event: Event): Order =>
  anomaly(order, `${event._tag} on a ${order.revoked ? "revoked " : ""}${order.status} order`)

/** The order's refunds with one of them changed (the order is then copied once, with its counters). */
const refundsWith = (
  order: Order,
  refundOrderNo: string,
  change: (r: RefundReservation) => RefundReservation,
): ReadonlyArray<RefundReservation> => order.refunds.map((r) => (r.refundOrderNo === refundOrderNo ? change(r) : r))

/**
 * The order once one of its pending refunds ends, confirmed or released: the
 * refund changed by `end`, its amount no longer pending, and counted as
 * refunded when it was confirmed.
 */
const endPendingRefund = (
  order: Order,
  event: Extract<Event, { readonly _tag: "RefundConfirmed" | "RefundReleased" }>,
  end: (refund: RefundReservation) => RefundReservation,
): Order => {
  const refund = order.refunds.find((r) => r.refundOrderNo === event.refundOrderNo)
  if (refund?.status !== "PENDING") return misfit(order, event)
  const amountFils = refund.request.amountFils
  return {
    ...order,
    refunds: refundsWith(order, event.refundOrderNo, end),
    pendingRefundFils: subtractFils(order.pendingRefundFils, amountFils),
    refundedFils: event._tag === "RefundConfirmed" ? addFils(order.refundedFils, amountFils) : order.refundedFils,
  }
}

export const evolve = (state: State, event: Event): State => {
  if (event._tag === "OrderCreated") {
    if (isOrder(state)) return anomaly(state, "OrderCreated on an order that already exists")
    const { _tag, ...created } = event
    return {
      ...created,
      status: "CREATED",
      revoked: false,
      failedAttempts: [],
      refunds: [],
      refundedFils: zeroFils,
      pendingRefundFils: zeroFils,
      anomalies: state.anomalies,
    }
  }
  if (!isOrder(state)) return anomaly(state, `${event._tag} before the order was created`)
  const order = state
  switch (event._tag) {
    case "PaymentAttemptFailed": {
      if (order.status !== "CREATED") return misfit(order, event)
      const { _tag, ...attempt } = event
      return {
        ...order,
        boundPayerMid: order.boundPayerMid ?? event.payerMid,
        failedAttempts: [...order.failedAttempts, attempt],
      }
    }
    case "OrderPaid": {
      if (order.status !== "CREATED") return misfit(order, event)
      const { _tag, ...payment } = event
      return { ...order, status: "PAID_SUCCESS", payment, boundPayerMid: order.boundPayerMid ?? event.payer.payerMid }
    }
    case "OrderSettled":
      if (order.status !== "PAID_SUCCESS") return misfit(order, event)
      return { ...order, status: "SETTLED", settledAt: event.settledAt }
    case "OrderClosed":
      if (order.status !== "CREATED") return misfit(order, event)
      return {
        ...order,
        status: "FAILURE",
        failure: { failCode: event.failCode, failDes: event.failDes, failedAt: event.closedAt },
      }
    case "OrderRevoked":
      if (order.revoked) return misfit(order, event)
      // State table: a settled order stays SETTLED; a paid, unsettled one shows FAILURE with revoked true.
      if (order.status === "SETTLED") return { ...order, revoked: true }
      if (order.status !== "PAID_SUCCESS") return misfit(order, event)
      return {
        ...order,
        status: "FAILURE",
        revoked: true,
        failure: {
          failCode: "ORDER_REVOKED",
          failDes: "the paid order was revoked and its payment is refunded",
          failedAt: event.revokedAt,
        },
      }
    case "RefundReserved": {
      const refundable = (order.status === "PAID_SUCCESS" || order.status === "SETTLED") && !order.revoked
      if (!refundable || order.refunds.some((r) => r.refundOrderNo === event.refundOrderNo)) return misfit(order, event)
      const { _tag, ...reserved } = event
      return {
        ...order,
        refunds: [...order.refunds, { ...reserved, status: "PENDING" }],
        pendingRefundFils: addFils(order.pendingRefundFils, event.request.amountFils),
      }
    }
    case "RefundConfirmed":
      return endPendingRefund(order, event, (r) => ({ ...r, status: "SUCCEEDED", confirmedAt: event.confirmedAt }))
    case "RefundReleased":
      return endPendingRefund(order, event, (r) => ({
        ...r,
        status: "RELEASED",
        releasedAt: event.releasedAt,
        releaseReason: event.reason,
      }))
  }
}
