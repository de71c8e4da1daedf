/**
 * The multi-stream flows as the gateway runs them, step by step through
 * `handleCommand` (libs/refund/README.md, "The flows the gateway runs"), and
 * the gateway's order-number index. The domain libs may not import one
 * another, and a tool may not import the gateway, so the sequences are
 * written out here as the README gives them; every step runs even when the
 * one before decided nothing.
 */
import {
  acquiringOrder,
  acquiringStreamId,
  isOrder,
  type Order,
  type RefundRequest,
  type RefundReservation,
  refundDetails,
  requestedRefund,
} from "@mizan/acquiring"
import { EventStore, handleCommand } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { isRefund, type RefundCause, refundOrder, refundStreamId } from "@mizan/refund"
import { Effect } from "effect"
import type { OrderKind } from "./world.ts"

/** The gateway's index of a service orderNo (apps/gateway orderIndex.ts): one event naming the order's stream. */
export const orderIndexStreamId = (merchantId: string, orderNo: string): string =>
  `order-no-${merchantId.length}-${merchantId}-${orderNo}`

export const indexOrderNo = (merchantId: string, orderNo: string, kind: OrderKind, streamId: string) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    yield* store
      .append(
        orderIndexStreamId(merchantId, orderNo),
        [{ type: "OrderNumberIssued", schemaVersion: 1, data: { orderNo, kind, streamId } }],
        "no_stream",
      )
      .pipe(Effect.catchTag("VersionConflict", () => Effect.void))
  })

const orderOf = (state: ReturnType<typeof acquiringOrder.evolve>): Order => {
  if (!isOrder(state)) throw new Error("the acquiring stream holds no order")
  return state
}

/** Step 2 of a refund or revoke: the refund order, created from what the acquiring order reserved. */
const createFromReservation = (merchantId: string, order: Order, reservation: RefundReservation, now: Timestamp) =>
  Effect.gen(function* () {
    const streamId = refundStreamId(merchantId, reservation.request.refundMerchantOrderNo, reservation.cause)
    const created = yield* handleCommand(refundOrder, streamId, {
      _tag: "CreateRefund",
      merchantId,
      now,
      orderNo: reservation.refundOrderNo,
      details: refundDetails(order, reservation),
    })
    yield* indexOrderNo(merchantId, reservation.refundOrderNo, "refund", streamId)
    return created
  })

/** Refund order: reserve on the acquiring order, then create the refund order (release on 62017). */
export const requestRefund = (input: {
  readonly merchantId: string
  readonly originMerchantOrderNo: string
  readonly refundOrderNo: string
  readonly request: RefundRequest
  readonly now: Timestamp
}) =>
  Effect.gen(function* () {
    const { merchantId, request, now } = input
    const acquiringStream = acquiringStreamId(merchantId, input.originMerchantOrderNo)
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
    yield* createFromReservation(merchantId, order, reservation, now).pipe(
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
  })

/** Revoke order: revoke on the acquiring order; a paid one reserved a full refund, whose refund order follows. */
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
    return reservation !== undefined
  })

/** The end of a refund: the refund order first, then its reservation on the acquiring order. */
export const endRefund = (input: {
  readonly merchantId: string
  readonly refundMerchantOrderNo: string
  readonly cause: RefundCause
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
    const refund = ended.state
    if (!isRefund(refund)) throw new Error("the refund stream holds no refund")
    yield* handleCommand(
      acquiringOrder,
      acquiringStreamId(merchantId, refund.details.originMerchantOrderNo),
      refund.status === "SUCCESS"
        ? { _tag: "ConfirmRefund", merchantId, now, refundOrderNo: refund.orderNo }
        : { _tag: "ReleaseRefund", merchantId, now, refundOrderNo: refund.orderNo, reason: "the refund order failed" },
    )
  })
