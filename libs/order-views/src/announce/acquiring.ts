/**
 * The acquiring side of the notifier's source: payment orders
 * (`acquireOrder`) and refunds (`refundOrder`) whose request carried a
 * notifyUrl are announced at each status change, with the order as the
 * query operation shows it as of that change.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import type { RecordedEvent } from "@mizan/eventsourcing"
import { encodeWire, operations } from "@mizan/protocol"
import { RefundOrder } from "@mizan/refund"
import { Effect, Option } from "effect"
import type { Announcement } from "../announcement.ts"
import { toWireAcquireOrder, toWireRefundOrder } from "../views/acquiring.ts"
import { stateAt } from "./stateAt.ts"

/** The acquiring events that change what a merchant would see in `status` or `revoked`. */
const acquiringStatusChanges = new Set(["OrderPaid", "OrderSettled", "OrderClosed", "OrderRevoked"])
/** The refund events that change its status. */
const refundStatusChanges = new Set(["RefundSettled", "RefundSucceeded", "RefundFailed"])

const acquireOrderWire = operations["/acquire2/getOrder"].response
const refundOrderWire = operations["/acquire2/refund/getOrder"].response

/**
 * Untraced: the notifier describes every event of the log, and a span each
 * would be a trace of its own per event, whether it announces anything or not.
 */
export const describeAcquiringEvent = Effect.fnUntraced(function* (event: RecordedEvent) {
  if (event.streamId.startsWith("acquiring-") && acquiringStatusChanges.has(event.type)) {
    const order = yield* stateAt(AcquiringOrder.aggregate, event.streamId, event.streamVersion)
    if (!AcquiringOrder.isOrder(order) || order.request.notifyUrl === undefined) return Option.none<Announcement>()
    const wire = encodeWire(acquireOrderWire, { acquireOrder: toWireAcquireOrder(order) }, "acquireOrder")
    return Option.some<Announcement>({
      merchantId: order.merchantId,
      notifyUrl: order.request.notifyUrl,
      orderKey: "acquireOrder",
      order: wire.acquireOrder as Announcement["order"],
      orderingKey: event.streamId,
    })
  }
  if (event.streamId.startsWith("refund-") && refundStatusChanges.has(event.type)) {
    const refund = yield* stateAt(RefundOrder.aggregate, event.streamId, event.streamVersion)
    if (refund.status === "ABSENT" || refund.details.notifyUrl === undefined) return Option.none<Announcement>()
    const wire = encodeWire(refundOrderWire, { refundOrder: toWireRefundOrder(refund) }, "refundOrder")
    return Option.some<Announcement>({
      merchantId: refund.merchantId,
      notifyUrl: refund.details.notifyUrl,
      orderKey: "refundOrder",
      order: wire.refundOrder as Announcement["order"],
      orderingKey: event.streamId,
    })
  }
  return Option.none<Announcement>()
})
