/**
 * The acquiring and refund flows, shared by the gateway (merchant API,
 * sandbox API, pay page) and the history generator. Each is a sequence of idempotent
 * commands that always runs to the end (libs/refund/README.md, "The flows
 * the gateway runs"): a crash between two appends is completed by the
 * service's recovery (`recovery/`), or sooner by the request's own retry.
 */

import { AcquiringOrder, refundDetails } from "@mizan/acquiring"
import { handleCommand, handleCommandOnNewStream, loadAggregate } from "@mizan/eventsourcing"
import { namesNoOrder, type Rejection, type Timestamp } from "@mizan/kernel"
import { RefundOrder } from "@mizan/refund"
import { Effect } from "effect"
import { createIndexedOrder } from "./createIndexed.ts"
import { findByOrderNo, newOrderNo } from "./orderIndex.ts"

/** How a request names an order: exactly one of the two (the wire schema checks it). */
export interface OrderName {
  readonly merchantOrderNo?: string
  readonly orderNo?: string
}

/**
 * The stream of a merchant's acquiring order named either way: 62035
 * ORDER_NO_NOT_EXIST when an orderNo names nothing of this merchant's. A
 * merchantOrderNo always names a stream; whether it holds an order, the
 * command decides (62004).
 */
export const acquiringStreamOf = Effect.fn("OrderFlows.acquiringStreamOf")(function* (
  merchantId: string,
  name: OrderName,
) {
  if (name.merchantOrderNo !== undefined) return AcquiringOrder.streamId(merchantId, name.merchantOrderNo)
  const streamId = yield* findByOrderNo(merchantId, name.orderNo ?? "", "acquiring")
  if (streamId === undefined) return yield* Effect.fail(namesNoOrder("ORDER_NO_NOT_EXIST", "orderNo"))
  return streamId
})

/** The order a command left, or 62004 when the stream holds none. */
const orderIn = ({ state }: { readonly state: AcquiringOrder.State }) =>
  AcquiringOrder.isOrder(state)
    ? Effect.succeed(state)
    : Effect.fail(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "merchantOrderNo"))

/**
 * Runs a command on an acquiring order and answers the order after it. A
 * create names a merchant order number that is nearly always new, so it is
 * decided on the empty stream without reading it first (a repeat is read
 * and decided as any other command: `handleCommandOnNewStream`). A create
 * that should also index its orderNo is `placeAcquiringOrder`.
 */
export const onOrder = (streamId: string, command: AcquiringOrder.Command) =>
  Effect.flatMap(
    command._tag === "CreateOrder"
      ? handleCommandOnNewStream(AcquiringOrder.aggregate, streamId, command)
      : handleCommand(AcquiringOrder.aggregate, streamId, command),
    orderIn,
  )

/**
 * Places an acquiring order and indexes its orderNo in the same write; a
 * repeat answers the first order and indexes its number
 * (`createIndexedOrder`).
 */
export const placeAcquiringOrder = (streamId: string, command: AcquiringOrder.CreateOrder) =>
  createIndexedOrder(AcquiringOrder.aggregate, streamId, command, "acquiring", orderIn)

/**
 * The order as it is now. A read that may write, and says so: an order past
 * its expiredTime that the expiry sweep has not closed yet is closed by this
 * read (an append), so that it reads as FAILURE, never as a CREATED order
 * that can no longer be paid.
 */
export const readOrderExpiringIfDue = (merchantId: string, streamId: string, now: Timestamp) =>
  onOrder(streamId, { _tag: "ExpireOrder", merchantId, now })

/** The refund a command left, or 62004 when the stream holds none. */
const refundIn = ({ state }: { readonly state: RefundOrder.State }) =>
  state.status === "ABSENT"
    ? Effect.fail(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "refundMerchantOrderNo", "refund"))
    : Effect.succeed(state as RefundOrder.Order)

/** Runs a command on a refund order and answers the refund after it. */
export const onRefund = (streamId: string, command: RefundOrder.Command) =>
  Effect.flatMap(handleCommand(RefundOrder.aggregate, streamId, command), refundIn)

/**
 * Creates the refund order a reservation on the acquiring order stands for,
 * and indexes its orderNo in the same write (`createIndexedOrder`: a refund
 * number is nearly always new). Idempotent: a repeat decides nothing and
 * indexes the first refund's number again. A reused refund number of
 * another order answers 62017, after the reservation just made is released
 * again.
 */
export const createRefundFromReservation = (
  order: AcquiringOrder.Order,
  acquiringStream: string,
  refundMerchantOrderNo: string,
  cause: RefundOrder.RefundCause,
  now: Timestamp,
) =>
  Effect.gen(function* () {
    const reservation =
      cause === "REVOKE"
        ? order.refunds.find((r) => r.cause === "REVOKE")
        : AcquiringOrder.requestedRefund(order, refundMerchantOrderNo)
    if (reservation === undefined) return yield* Effect.die(new Error(`no ${cause} reservation on ${acquiringStream}`))
    const refundStream = RefundOrder.streamId(order.merchantId, refundMerchantOrderNo, cause)
    const create: RefundOrder.CreateRefund = {
      _tag: "CreateRefund",
      merchantId: order.merchantId,
      now,
      orderNo: reservation.refundOrderNo,
      details: refundDetails(order, reservation),
    }
    return yield* createIndexedOrder(RefundOrder.aggregate, refundStream, create, "refund", refundIn).pipe(
      Effect.tapError((rejection: Rejection | unknown) =>
        (rejection as Rejection)._tag === "Rejection" &&
        (rejection as Rejection).code === "REFUND_MERCHANT_ORDER_NO_EXIST"
          ? onOrder(acquiringStream, {
              _tag: "ReleaseRefund",
              merchantId: order.merchantId,
              now,
              refundOrderNo: reservation.refundOrderNo,
              reason: "the refund number belongs to a refund of another order",
            })
          : Effect.void,
      ),
    )
  }).pipe(Effect.withSpan("OrderFlows.createRefundFromReservation", { attributes: { acquiringStream } }))

/** The refund stream of a merchant's refund named either way (62004 / 62035 when it names nothing). */
export const refundStreamOf = Effect.fn("OrderFlows.refundStreamOf")(function* (
  merchantId: string,
  name: { refundMerchantOrderNo?: string; orderNo?: string },
) {
  if (name.refundMerchantOrderNo !== undefined) return RefundOrder.streamId(merchantId, name.refundMerchantOrderNo)
  const streamId = yield* findByOrderNo(merchantId, name.orderNo ?? "", "refund")
  if (streamId === undefined) return yield* Effect.fail(namesNoOrder("ORDER_NO_NOT_EXIST", "orderNo", "refund"))
  return streamId
})

/** A refund order as it is now (62004 when the stream holds none). */
export const currentRefund = (streamId: string) =>
  Effect.flatMap(loadAggregate(RefundOrder.aggregate, streamId), ({ state }) =>
    state.status === "ABSENT"
      ? Effect.fail(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "refundMerchantOrderNo", "refund"))
      : Effect.succeed(state as RefundOrder.Order),
  )

/**
 * The end of a refund (the sandbox or a bank reports it): the refund order
 * first, then the reservation on the acquiring order confirmed or released.
 */
export const endRefund = (
  refundStream: string,
  outcome:
    | { readonly _tag: "SettleRefund" | "CompleteRefund" }
    | { readonly _tag: "FailRefund"; failCode: string; failDes: string },
  now: Timestamp,
) =>
  Effect.gen(function* () {
    const existing = yield* currentRefund(refundStream)
    const merchantId = existing.merchantId
    const refund = yield* onRefund(refundStream, { ...outcome, merchantId, now } as RefundOrder.Command)
    yield* endReservationOf(refund, now)
    return refund
  }).pipe(Effect.withSpan("OrderFlows.endRefund", { attributes: { refundStream } }))

/**
 * The second step of a refund's end: the reservation on the acquiring
 * order confirmed (the refund succeeded) or released (it failed). Nothing
 * for a refund that has not ended. Idempotent.
 */
export const endReservationOf = (refund: RefundOrder.Order, now: Timestamp) => {
  const { merchantId } = refund
  const acquiringStream = AcquiringOrder.streamId(merchantId, refund.details.originMerchantOrderNo)
  if (refund.status === "SUCCESS")
    return Effect.asVoid(
      onOrder(acquiringStream, { _tag: "ConfirmRefund", merchantId, now, refundOrderNo: refund.orderNo }),
    )
  if (refund.status === "FAILURE")
    return Effect.asVoid(
      onOrder(acquiringStream, {
        _tag: "ReleaseRefund",
        merchantId,
        now,
        refundOrderNo: refund.orderNo,
        reason: refund.failure.failDes,
      }),
    )
  return Effect.void
}

/**
 * A refund request (libs/refund/README.md, "Refund order"): the amount is
 * reserved against the acquiring order, whose stream holds the refundable
 * balance, then the refund order is created from the reservation. The
 * refund's orderNo is made here; a repeat keeps the first one.
 */
export const requestRefund = (input: {
  readonly merchantId: string
  readonly acquiringStream: string
  readonly request: AcquiringOrder.RefundRequest
  readonly now: Timestamp
  /** The refund's orderNo if this request is the first; made fresh when absent (a generator passes seeded ones). */
  readonly refundOrderNo?: string
}) =>
  Effect.gen(function* () {
    const { merchantId, acquiringStream, request, now } = input
    // An order past its expiry is closed first, so the refund reads its true status.
    yield* readOrderExpiringIfDue(merchantId, acquiringStream, now)
    const order = yield* onOrder(acquiringStream, {
      _tag: "ReserveRefund",
      merchantId,
      now,
      refundOrderNo: input.refundOrderNo ?? newOrderNo(now, "refund"),
      request,
    })
    const refund = yield* createRefundFromReservation(
      order,
      acquiringStream,
      request.refundMerchantOrderNo,
      "REQUEST",
      now,
    )
    return { order, refund }
  }).pipe(Effect.withSpan("OrderFlows.requestRefund", { attributes: { acquiringStream: input.acquiringStream } }))

/**
 * Revoke (libs/refund/README.md, "Revoke order"): the order first; a paid
 * one reserved a full refund, whose refund order follows from it.
 */
export const revokeOrder = (input: {
  readonly merchantId: string
  readonly acquiringStream: string
  readonly now: Timestamp
  /** The refund's orderNo if the revoke starts one; made fresh when absent. */
  readonly refundOrderNo?: string
}) =>
  Effect.gen(function* () {
    const { merchantId, acquiringStream, now } = input
    const order = yield* onOrder(acquiringStream, {
      _tag: "RevokeOrder",
      merchantId,
      now,
      refundOrderNo: input.refundOrderNo ?? newOrderNo(now, "refund"),
    })
    if (order.refunds.some((r) => r.cause === "REVOKE"))
      yield* createRefundFromReservation(order, acquiringStream, order.request.merchantOrderNo, "REVOKE", now)
    return order
  }).pipe(Effect.withSpan("OrderFlows.revokeOrder", { attributes: { acquiringStream: input.acquiringStream } }))
