/**
 * The acquiring order's compact audit state and its fold (auditFold.ts says
 * why). The domain's order keeps the merchant's whole request, the payer, the
 * card, every failed attempt and the payment's terms; the audit's rules read
 * the status, the revoke, the anomalies, the total and the sharing items'
 * numbers of the request, the paid amount and its split, the refund
 * reservations (which the cross-stream rule compares with the refund orders)
 * and the two refund counters. This state keeps those and nothing else, under
 * the domain's names, so that the domain's `invariants`, `status` and `money`
 * read it as they read an order; and it is changed in place, one stream's state
 * owned by the replay alone, instead of copied at every event.
 *
 * Each branch of `evolveCompact` mirrors one of the domain's `evolve`
 * (libs/acquiring/src/evolve.ts), anomalies worded the same;
 * test/compactFold.spec.ts proves the two agree on every rule.
 */

import type { AcquiringOrder } from "@mizan/acquiring"
import { addFils, type Fils, subtractFils, zeroFils } from "@mizan/kernel"
import type { AuditFold } from "./auditFold.ts"

type Status = AcquiringOrder.State["status"]

/** What the refund reservations keep: the domain's own shape (the cross-stream rule reads every part of it). */
type Reservation = { -readonly [K in keyof AcquiringOrder.RefundReservation]: AcquiringOrder.RefundReservation[K] }

export interface CompactOrder {
  status: Status
  revoked: boolean
  anomalies: ReadonlyArray<string>
  /** The request's total and its sharing items' numbers: what the split rules compare the payment with. */
  request: {
    readonly totalAmountFils: Fils
    readonly sharingParamList?: ReadonlyArray<{ readonly sharingIdentitySeqId: number }>
  }
  payment: { readonly paidAmountFils: Fils; readonly settlement: AcquiringOrder.Settlement } | undefined
  refunds: Array<Reservation>
  refundedFils: Fils
  pendingRefundFils: Fils
}

const noAnomalies: ReadonlyArray<string> = Object.freeze([])

export const initialCompactOrder = (): CompactOrder => ({
  status: "ABSENT",
  revoked: false,
  anomalies: noAnomalies,
  request: { totalAmountFils: zeroFils },
  payment: undefined,
  refunds: [],
  refundedFils: zeroFils,
  pendingRefundFils: zeroFils,
})

/** Writes down an event that does not fit the state, which it leaves as it was. */
const anomaly = (order: CompactOrder, what: string): CompactOrder => {
  order.anomalies = [...order.anomalies, what]
  return order
}

const misfit = (order: CompactOrder, event: AcquiringOrder.Event): CompactOrder =>
  anomaly(order, `${event._tag} on a ${order.revoked ? "revoked " : ""}${order.status} order`)

/** Ends a pending refund, confirmed or released; the counters are worked out before anything changes, as they may throw. */
const endPendingRefund = (
  order: CompactOrder,
  event: Extract<AcquiringOrder.Event, { readonly _tag: "RefundConfirmed" | "RefundReleased" }>,
): CompactOrder => {
  const refund = order.refunds.find((r) => r.refundOrderNo === event.refundOrderNo)
  if (refund?.status !== "PENDING") return misfit(order, event)
  const amountFils = refund.request.amountFils
  const pendingRefundFils = subtractFils(order.pendingRefundFils, amountFils)
  const refundedFils = event._tag === "RefundConfirmed" ? addFils(order.refundedFils, amountFils) : order.refundedFils
  for (const r of order.refunds)
    if (r.refundOrderNo === event.refundOrderNo)
      if (event._tag === "RefundConfirmed") {
        r.status = "SUCCEEDED"
        r.confirmedAt = event.confirmedAt
      } else {
        r.status = "RELEASED"
        r.releasedAt = event.releasedAt
        r.releaseReason = event.reason
      }
  order.pendingRefundFils = pendingRefundFils
  order.refundedFils = refundedFils
  return order
}

export const evolveCompact = (order: CompactOrder, event: AcquiringOrder.Event): CompactOrder => {
  if (event._tag === "OrderCreated") {
    if (order.status !== "ABSENT") return anomaly(order, "OrderCreated on an order that already exists")
    const { totalAmountFils, sharingParamList } = event.request
    order.status = "CREATED"
    order.request =
      sharingParamList === undefined
        ? { totalAmountFils }
        : {
            totalAmountFils,
            sharingParamList: sharingParamList.map((item) => ({ sharingIdentitySeqId: item.sharingIdentitySeqId })),
          }
    return order
  }
  if (order.status === "ABSENT") return anomaly(order, `${event._tag} before the order was created`)
  switch (event._tag) {
    case "PaymentAttemptFailed":
      return order.status === "CREATED" ? order : misfit(order, event)
    case "OrderPaid":
      if (order.status !== "CREATED") return misfit(order, event)
      order.status = "PAID_SUCCESS"
      order.payment = { paidAmountFils: event.paidAmountFils, settlement: event.settlement }
      return order
    case "OrderSettled":
      if (order.status !== "PAID_SUCCESS") return misfit(order, event)
      order.status = "SETTLED"
      return order
    case "OrderClosed":
      if (order.status !== "CREATED") return misfit(order, event)
      order.status = "FAILURE"
      return order
    case "OrderRevoked":
      if (order.revoked) return misfit(order, event)
      if (order.status === "SETTLED") {
        order.revoked = true
        return order
      }
      if (order.status !== "PAID_SUCCESS") return misfit(order, event)
      order.status = "FAILURE"
      order.revoked = true
      return order
    case "RefundReserved": {
      const refundable = (order.status === "PAID_SUCCESS" || order.status === "SETTLED") && !order.revoked
      if (!refundable || order.refunds.some((r) => r.refundOrderNo === event.refundOrderNo)) return misfit(order, event)
      const pendingRefundFils = addFils(order.pendingRefundFils, event.request.amountFils)
      const { _tag, ...reserved } = event
      order.refunds.push({ ...reserved, status: "PENDING" })
      order.pendingRefundFils = pendingRefundFils
      return order
    }
    case "RefundConfirmed":
    case "RefundReleased":
      return endPendingRefund(order, event)
  }
}

/**
 * The domain's `invariants`, `status` and `money` read a compact order as an
 * order: it has every field they read, under the same name and type (the
 * property test proves they answer the same on both).
 */
const asOrder = (order: CompactOrder): AcquiringOrder.State => order as unknown as AcquiringOrder.State

export const compactAcquiringFold = (
  domain: AuditFold<AcquiringOrder.Event, AcquiringOrder.State>,
): AuditFold<AcquiringOrder.Event, CompactOrder> => ({
  initial: initialCompactOrder,
  evolve: evolveCompact,
  invariants: (order) => domain.invariants(asOrder(order)),
  status: (order) => domain.status(asOrder(order)),
  money: (order) => domain.money(asOrder(order)),
  ended: (order) => domain.ended?.(asOrder(order)) ?? false,
})
