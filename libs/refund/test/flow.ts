/**
 * The refund flows as the gateway runs them with `handleCommand`, across the
 * acquiring order stream and the refund order stream (see the README). They
 * live in the tests because a domain lib may not import another; the gateway
 * runs the same sequence. Every step is idempotent, and every step runs even
 * when the one before decided nothing: that is what heals a crash between two
 * appends when the request is retried.
 */
import {
  type State as AcquiringState,
  acquiringOrder,
  acquiringStreamId,
  isOrder,
  type Order,
  type RefundRequest,
  type RefundReservation,
  refundDetails,
  refundSummary,
  requestedRefund,
} from "@mizan/acquiring"
import { handleCommand } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { Effect } from "effect"
import {
  isRefund,
  type RefundCause,
  type RefundOrder,
  type State as RefundState,
  refundOrder,
  refundStreamId,
} from "../src/index.ts"

const orderOf = (state: AcquiringState): Order => {
  if (!isOrder(state)) throw new Error("the acquiring stream holds no order")
  return state
}

const refundOf = (state: RefundState): RefundOrder => {
  if (!isRefund(state)) throw new Error("the refund stream holds no refund")
  return state
}

/** Step 2 of a refund: create the refund order from what the acquiring order reserved. */
const createFromReservation = (merchantId: string, order: Order, reservation: RefundReservation, now: Timestamp) =>
  handleCommand(refundOrder, refundStreamId(merchantId, reservation.request.refundMerchantOrderNo, reservation.cause), {
    _tag: "CreateRefund",
    merchantId,
    now,
    orderNo: reservation.refundOrderNo,
    details: refundDetails(order, reservation),
  })

export interface RefundRequested {
  readonly refund: RefundOrder
  readonly refundSummary: ReturnType<typeof refundSummary>
}

/**
 * Refund order (`/acquire2/refund/placeOrder`):
 * 1. ReserveRefund on the acquiring order's stream: the refundable balance
 *    and every refusal (62006, 62015, 62002, 62040, 62038, 62045, 62017,
 *    62083, 62084) are decided there, under its expected version.
 * 2. CreateRefund on the refund order's stream, from the reservation.
 *    62017 there means the refund number belongs to another order: the
 *    reservation just made is released, and the request answers 62017.
 */
export const requestRefund = (input: {
  readonly merchantId: string
  readonly originMerchantOrderNo: string
  /** A fresh service number from the edge; a repeated request keeps the first one. */
  readonly refundOrderNo: string
  readonly request: RefundRequest
  readonly now: Timestamp
}) =>
  Effect.gen(function* () {
    const { merchantId, originMerchantOrderNo, request, now } = input
    const acquiringStream = acquiringStreamId(merchantId, originMerchantOrderNo)
    const reserved = yield* handleCommand(acquiringOrder, acquiringStream, {
      _tag: "ReserveRefund",
      merchantId,
      now,
      refundOrderNo: input.refundOrderNo,
      request,
    })
    const order = orderOf(reserved.state)
    const reservation = requestedRefund(order, request.refundMerchantOrderNo)
    if (reservation === undefined) throw new Error("the reservation just made is missing")
    const created = yield* createFromReservation(merchantId, order, reservation, now).pipe(
      Effect.tapError((error) =>
        error._tag === "Rejection" && error.code === "REFUND_MERCHANT_ORDER_NO_EXIST"
          ? handleCommand(acquiringOrder, acquiringStream, {
              _tag: "ReleaseRefund",
              merchantId,
              now,
              refundOrderNo: reservation.refundOrderNo,
              reason: "the refund number belongs to a refund of another order",
            })
          : Effect.void,
      ),
    )
    return { refund: refundOf(created.state), refundSummary: refundSummary(order) } satisfies RefundRequested
  })

/**
 * Revoke order: RevokeOrder on the acquiring stream; when it reserved a full
 * refund (the order was paid), create that refund order in the revoke
 * namespace of refund streams.
 */
export const revokeOrder = (input: {
  readonly merchantId: string
  readonly merchantOrderNo: string
  readonly refundOrderNo: string
  readonly now: Timestamp
}) =>
  Effect.gen(function* () {
    const { merchantId, now } = input
    const revoked = yield* handleCommand(acquiringOrder, acquiringStreamId(merchantId, input.merchantOrderNo), {
      _tag: "RevokeOrder",
      merchantId,
      now,
      refundOrderNo: input.refundOrderNo,
    })
    const order = orderOf(revoked.state)
    const reservation = order.refunds.find((r) => r.cause === "REVOKE")
    if (reservation !== undefined) yield* createFromReservation(merchantId, order, reservation, now)
    return order
  })

/**
 * The end of a refund (the sandbox, or the bank, reports it): the refund
 * order first, then its reservation on the acquiring order (confirmed when
 * the refund succeeded, released when it failed).
 */
export const endRefund = (input: {
  readonly merchantId: string
  readonly refundMerchantOrderNo: string
  readonly cause?: RefundCause
  readonly outcome: "SUCCESS" | "FAILURE"
  readonly now: Timestamp
}) =>
  Effect.gen(function* () {
    const { merchantId, now } = input
    const ended = yield* handleCommand(
      refundOrder,
      refundStreamId(merchantId, input.refundMerchantOrderNo, input.cause),
      input.outcome === "SUCCESS"
        ? { _tag: "CompleteRefund", merchantId, now }
        : { _tag: "FailRefund", merchantId, now, failCode: "BANK_REJECTED", failDes: "the bank refused the refund" },
    )
    const refund = refundOf(ended.state)
    const acquiringStream = acquiringStreamId(merchantId, refund.details.originMerchantOrderNo)
    yield* handleCommand(
      acquiringOrder,
      acquiringStream,
      refund.status === "SUCCESS"
        ? { _tag: "ConfirmRefund", merchantId, now, refundOrderNo: refund.orderNo }
        : { _tag: "ReleaseRefund", merchantId, now, refundOrderNo: refund.orderNo, reason: "the refund order failed" },
    )
    return refund
  })
