/**
 * Lookup by the service's orderNo (DESIGN.md, Consistency: uniqueness across
 * streams uses reservation streams, never a read-then-write race). Each
 * orderNo the service issues gets a tiny index stream, keyed by merchant,
 * whose one event names the order's stream. Appending it expects
 * `no_stream`, so a retried request that finds it written moves on; a crash
 * between the order's append and the index's is healed by the retry, since
 * the order's command decides nothing new and the index append runs again.
 * A merchant can only ever find its own orders: another merchant's orderNo
 * reads as absent.
 */
import { randomInt } from "node:crypto"
import { EventStore, type StoreError } from "@mizan/eventsourcing"
import { formatCompactUtc, type Timestamp } from "@mizan/kernel"
import { Effect } from "effect"

export const orderIndexEventType = "OrderNumberIssued"

export type OrderKind = "acquiring" | "refund" | "walletTransfer" | "bankTransfer" | "cardTransfer" | "vamDeposit"

/** The index stream of one orderNo of one merchant; injective like the aggregates' stream ids. */
export const orderIndexStreamId = (merchantId: string, orderNo: string): string =>
  `order-no-${merchantId.length}-${merchantId}-${orderNo}`

/**
 * A new service order number: the time in UTC to the second, a kind digit
 * and 11 random digits (32 characters at most, the spec's shortest bound for
 * orderNo). Only a first request's number is ever kept, by the aggregate.
 */
export const newOrderNo = (now: Timestamp, kind: OrderKind): string => {
  const kindDigit = {
    acquiring: "1",
    refund: "2",
    walletTransfer: "3",
    bankTransfer: "4",
    cardTransfer: "5",
    vamDeposit: "6",
  }[kind]
  const random = `${randomInt(0, 1e6)}`.padStart(6, "0") + `${randomInt(0, 1e5)}`.padStart(5, "0")
  return `${formatCompactUtc(now)}${kindDigit}${random}`
}

/** Records which stream an orderNo names. Idempotent: an existing index is left as it is. */
export const indexOrderNo = (merchantId: string, orderNo: string, kind: OrderKind, streamId: string) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    yield* store
      .append(
        orderIndexStreamId(merchantId, orderNo),
        [{ type: orderIndexEventType, schemaVersion: 1, data: { orderNo, kind, streamId } }],
        "no_stream",
      )
      .pipe(Effect.catchTag("VersionConflict", () => Effect.void))
  })

/** The stream an orderNo of this merchant names, if it names one of this kind. */
export const findByOrderNo = (
  merchantId: string,
  orderNo: string,
  kind: OrderKind,
): Effect.Effect<string | undefined, StoreError, EventStore> =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const [issued] = yield* store.readStream(orderIndexStreamId(merchantId, orderNo), { maxCount: 1 })
    const data = issued?.data as { kind?: string; streamId?: string } | undefined
    return data?.kind === kind ? data.streamId : undefined
  })
