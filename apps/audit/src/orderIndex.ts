/**
 * The gateway's order-number index streams, as the audit reads them. For
 * every orderNo the service issues, the gateway appends one
 * `OrderNumberIssued { orderNo, kind, streamId }` to
 * `order-no-<merchant id length>-<merchant id>-<orderNo>`, expecting
 * `no_stream` (DESIGN.md, Consistency: uniqueness across streams uses
 * reservation streams). They are not a domain aggregate, so the audit holds
 * their decider here: one event, then nothing.
 *
 * What the audit checks: each index holds exactly one event, and the stream it
 * names exists in the log (checked once the whole log has been read, see
 * replay.ts).
 */
import { type Aggregate, makeEventCodec } from "@mizan/eventsourcing"
import { Schema } from "effect"
import type { BrokenRule } from "./registry.ts"

export const orderIndexStreamPrefix = "order-no-"

/** The index stream of one orderNo of one merchant (the gateway's `orderIndexStreamId`). */
export const orderIndexStreamId = (merchantId: string, orderNo: string): string =>
  `${orderIndexStreamPrefix}${merchantId.length}-${merchantId}-${orderNo}`

export const OrderNumberIssued = Schema.TaggedStruct("OrderNumberIssued", {
  orderNo: Schema.NonEmptyString,
  /** The gateway's kind of order ("acquiring", "refund", "walletTransfer", ...): kept as text, new kinds may come. */
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
      /** Issues recorded after the first: the gateway never writes one (it appends expecting no_stream). */
      readonly reissues: number
    }

export const orderIndexEventCodec = makeEventCodec(OrderNumberIssued, { OrderNumberIssued: { current: 1 } })

const noCommands = (): never => {
  throw new Error("the order-number index is written by the gateway, not decided here")
}

export const orderIndex: Aggregate<never, OrderNumberIssued, OrderIndexState, never> = {
  initialState: { status: "ABSENT" },
  decide: noCommands,
  evolve: (state, event) =>
    state.status === "ABSENT"
      ? { status: "ISSUED", orderNo: event.orderNo, kind: event.kind, streamId: event.streamId, reissues: 0 }
      : { ...state, reissues: state.reissues + 1 },
  codec: orderIndexEventCodec,
}

export const orderIndexRules = {
  issuedOnce: "an order number is issued once",
  namesExistingStream: "an order number names a stream that exists",
} as const

export const orderIndexInvariants = (state: OrderIndexState): ReadonlyArray<BrokenRule> =>
  state.status === "ISSUED" && state.reissues > 0
    ? [{ rule: orderIndexRules.issuedOnce, detail: `${state.orderNo} issued ${state.reissues + 1} times` }]
    : []
