/**
 * Events of the refund order, with their schema versions. A change to an
 * event's shape raises its `current` version and brings an upcaster;
 * test/fixtures/refund.events.json proves old events replay.
 */
import { makeEventCodec } from "@mizan/eventsourcing"
import { RequiredString, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { MerchantId, OrderNo, RefundDetails } from "./commands.ts"

export const RefundCreated = Schema.TaggedStruct("RefundCreated", {
  merchantId: MerchantId,
  orderNo: OrderNo,
  details: RefundDetails,
  createdAt: Timestamp,
})

export const RefundSettled = Schema.TaggedStruct("RefundSettled", { settledAt: Timestamp })

export const RefundSucceeded = Schema.TaggedStruct("RefundSucceeded", { succeededAt: Timestamp })

export const RefundFailed = Schema.TaggedStruct("RefundFailed", {
  failCode: RequiredString(64),
  failDes: Schema.String,
  failedAt: Timestamp,
})

export const Event = Schema.Union([RefundCreated, RefundSettled, RefundSucceeded, RefundFailed])
export type Event = typeof Event.Type

export const eventCodec = makeEventCodec(Event, {
  RefundCreated: { current: 1 },
  RefundSettled: { current: 1 },
  RefundSucceeded: { current: 1 },
  RefundFailed: { current: 1 },
})
