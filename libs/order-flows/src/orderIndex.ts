/**
 * Lookup by the service's orderNo (docs/architecture.md#consistency:
 * uniqueness across streams uses reservation streams, never a read-then-write race).
 * Each orderNo the service issues gets a tiny index stream, keyed by
 * merchant, whose one event names the order's stream. Appending it expects
 * `no_stream`, so a retried request that finds it written moves on; a crash
 * between the order's append and the index's is healed by the retry, since
 * the order's command decides nothing new and the index append runs again.
 * A merchant only ever finds its own orders: another merchant's orderNo
 * reads as absent.
 */
import { randomInt } from "node:crypto"
import { type Aggregate, EventStore, makeEventCodec, type StreamAppend } from "@mizan/eventsourcing"
import { formatCompactUtc, type Timestamp } from "@mizan/kernel"
import { Effect, Schema } from "effect"

export const orderKinds = [
  "acquiring",
  "refund",
  "walletTransfer",
  "bankTransfer",
  "cardTransfer",
  "vamDeposit",
] as const
export type OrderKind = (typeof orderKinds)[number]

export const orderIndexStreamPrefix = "order-no-"

/** The index stream of one orderNo of one merchant; the merchant id's length first makes it injective. */
export const orderIndexStreamId = (merchantId: string, orderNo: string): string =>
  `${orderIndexStreamPrefix}${merchantId.length}-${merchantId}-${orderNo}`

export const OrderNumberIssued = Schema.TaggedStruct("OrderNumberIssued", {
  orderNo: Schema.NonEmptyString,
  /** The kind of order ("acquiring", "refund", ...): kept as text, so new kinds replay. */
  kind: Schema.NonEmptyString,
  /** The stream of the order this number names. */
  streamId: Schema.NonEmptyString,
})
export type OrderNumberIssued = typeof OrderNumberIssued.Type

export type OrderIndexState =
  | { readonly status: "ABSENT" }
  | {
      readonly status: "ISSUED"
      readonly orderNo: string
      readonly kind: string
      readonly streamId: string
      /** Issues recorded after the first: never written, since the index appends expecting no_stream. */
      readonly reissues: number
    }

export const orderIndexEventCodec = makeEventCodec(OrderNumberIssued, { OrderNumberIssued: { current: 1 } })

/** The index stream as an aggregate, for replay: one event, then nothing. It is written by `indexOrderNo`. */
export const orderIndex: Aggregate<never, OrderNumberIssued, OrderIndexState, never> = {
  initialState: { status: "ABSENT" },
  decide: () => {
    throw new Error("the order-number index is written by indexOrderNo, not decided")
  },
  evolve: (state, event) =>
    state.status === "ABSENT"
      ? { status: "ISSUED", orderNo: event.orderNo, kind: event.kind, streamId: event.streamId, reissues: 0 }
      : { ...state, reissues: state.reissues + 1 },
  codec: orderIndexEventCodec,
}

const kindDigit: Readonly<Record<OrderKind, string>> = {
  acquiring: "1",
  refund: "2",
  walletTransfer: "3",
  bankTransfer: "4",
  cardTransfer: "5",
  vamDeposit: "6",
}

/**
 * A new service order number: the time in UTC to the second, a kind digit
 * and 11 random digits (26 characters, within the spec's shortest bound of
 * 32). Only a first request's number is ever kept, by the aggregate.
 */
export const newOrderNo = (now: Timestamp, kind: OrderKind): string => {
  const random = `${randomInt(0, 1e6)}`.padStart(6, "0") + `${randomInt(0, 1e5)}`.padStart(5, "0")
  return `${formatCompactUtc(now)}${kindDigit[kind]}${random}`
}

/**
 * The index's part of an append: the event that says which stream an
 * orderNo names, on a stream that must not exist yet. Appended on its own
 * (`indexOrderNo`) or beside the order's own events (`placeAcquiringOrder`).
 */
export const orderIndexPart = (
  merchantId: string,
  orderNo: string,
  kind: OrderKind,
  streamId: string,
): StreamAppend => ({
  streamId: orderIndexStreamId(merchantId, orderNo),
  events: [orderIndexEventCodec.encode({ _tag: "OrderNumberIssued", orderNo, kind, streamId })],
  expected: "no_stream",
})

/**
 * Records which stream an orderNo names. Idempotent: an existing index is
 * left as it is. Untraced: its one append is a span of its own
 * (`EventStore.append`, naming the index stream), and a span more per
 * create cost the gateway's event loop about 3.5 µs for nothing a trace
 * would not already show.
 */
export const indexOrderNo = Effect.fnUntraced(function* (
  merchantId: string,
  orderNo: string,
  kind: OrderKind,
  streamId: string,
) {
  const store = yield* EventStore
  const { streamId: indexStream, events, expected } = orderIndexPart(merchantId, orderNo, kind, streamId)
  yield* store.append(indexStream, events, expected).pipe(Effect.catchTag("VersionConflict", () => Effect.void))
})

/** The stream an orderNo of this merchant names, if it names one of this kind. */
export const findByOrderNo = Effect.fnUntraced(function* (merchantId: string, orderNo: string, kind: OrderKind) {
  const store = yield* EventStore
  const [issued] = yield* store.readStream(orderIndexStreamId(merchantId, orderNo), { maxCount: 1 })
  const data = issued?.data as { kind?: string; streamId?: string } | undefined
  return data?.kind === kind ? data.streamId : undefined
})
