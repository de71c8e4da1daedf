/**
 * A rule that spans two streams, so no aggregate's `invariants` can hold
 * it: every refund order agrees with the reservation on its acquiring order
 * (docs/architecture.md#consistency: a refund reserves on the acquiring
 * order, then the refund order is created from that reservation). The
 * acquiring order guards the refundable balance, and the refund order is
 * what the merchant and the notifier see; an edit to either one alone
 * (amount, allocation, status) shows here. Checked on the whole log (or the
 * part read), when the replay reports, since the two streams are written by
 * separate appends and a crash between them leaves them apart until the
 * request's retry heals it.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import { RefundOrder } from "@mizan/refund"
import type { BrokenRule } from "../model/registry.ts"

export const refundReservationRule = "a refund order agrees with its reservation on the acquiring order"

/** The reservation status each refund order status stands with. */
const reservationStatusOf = {
  CREATED: "PENDING",
  REFUNDED_SETTLED: "PENDING",
  SUCCESS: "SUCCEEDED",
  FAILURE: "RELEASED",
} as const satisfies Record<RefundOrder.Order["status"], AcquiringOrder.RefundReservation["status"]>

const sharingOf = (parts: ReadonlyArray<{ readonly sharingIdentitySeqId: number; readonly amount: number }>) =>
  parts.map((part) => `${part.sharingIdentitySeqId}:${part.amount}`).join(",")

/** Where the refund and its reservation differ, in words; empty when they agree. */
const differences = (refund: RefundOrder.Order, reservation: AcquiringOrder.RefundReservation): Array<string> => {
  const { details } = refund
  const found: Array<string> = []
  const compare = (what: string, inRefund: unknown, inReservation: unknown) => {
    if (inRefund !== inReservation) found.push(`${what} ${String(inRefund)} against ${String(inReservation)}`)
  }
  compare("cause", details.cause, reservation.cause)
  compare("refundMerchantOrderNo", details.refundMerchantOrderNo, reservation.request.refundMerchantOrderNo)
  compare("amount", details.amountFils, reservation.request.amountFils)
  compare("payee part", details.payeeRefundFils, reservation.allocation.payeeFils)
  compare("fee part", details.feeRefundedFils, reservation.allocation.feeFils)
  compare(
    "sharing parts",
    sharingOf(details.sharingInfoList.map((s) => ({ ...s, amount: s.sharingSettledAmountFils }))),
    sharingOf(reservation.allocation.sharing.map((s) => ({ ...s, amount: s.amountFils }))),
  )
  compare("status", reservationStatusOf[refund.status], reservation.status)
  return found
}

/**
 * The broken rule of one refund stream, if it is broken: `acquiringOf`
 * answers the state of an acquiring stream the replay holds.
 */
export const refundReservationProblem = (
  refund: RefundOrder.State,
  acquiringOf: (streamId: string) => unknown,
): BrokenRule | undefined => {
  if (!RefundOrder.isRefund(refund)) return undefined
  const acquiringStream = AcquiringOrder.streamId(refund.merchantId, refund.details.originMerchantOrderNo)
  const order = acquiringOf(acquiringStream) as AcquiringOrder.Order | undefined
  if (order === undefined || !AcquiringOrder.isOrder(order))
    return { rule: refundReservationRule, detail: `its acquiring order ${acquiringStream} holds no order` }
  const reservation = AcquiringOrder.refundByOrderNo(order, refund.orderNo)
  if (reservation === undefined)
    return {
      rule: refundReservationRule,
      detail: `${acquiringStream} holds no reservation for refund order ${refund.orderNo}`,
    }
  const found = differences(refund, reservation)
  return found.length === 0
    ? undefined
    : {
        rule: refundReservationRule,
        detail: `refund order ${refund.orderNo} against its reservation on ${acquiringStream}: ${found.join("; ")}`,
      }
}
