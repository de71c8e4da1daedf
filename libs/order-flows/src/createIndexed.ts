/**
 * Every order the service numbers (acquiring, refund, wallet, bank and card
 * transfers) is created the same way: on a stream that is nearly always
 * new, with its orderNo's index in the same write. A virtual-account
 * deposit needs no index: its stream is named by its orderNo.
 */
import { type Aggregate, handleCommandOnNewStream } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { indexOrderNo, type OrderKind, orderIndexPart } from "./orderIndex.ts"

/** What a create command says of its order: its merchant and the orderNo issued for this request. */
export interface CreatesNumberedOrder {
  readonly merchantId: string
  readonly orderNo: string
}

/**
 * Creates an order and indexes its orderNo in one write (`appendMany`: one
 * transaction and one wait for durability where the store commits several
 * streams at once), deciding on the empty stream without reading it first
 * (`handleCommandOnNewStream`). `orderIn` answers the order the command
 * left, or the refusal when it left none. A repeat (the merchant's retry
 * of a create) is read and decided as any other command, answers the order
 * the first request created, and indexes that order's number again, which
 * heals a first request cut short between the order and its index (a store
 * that appends in turn, a crash). A refusal is the answer, with nothing
 * indexed. Idempotent. Untraced: the handler's span and the store's name
 * the streams.
 */
export const createIndexedOrder = Effect.fnUntraced(function* <
  Command,
  Event,
  State,
  Error,
  Order extends { readonly orderNo: string },
  NoOrder,
  Needs,
>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  command: Command & CreatesNumberedOrder,
  kind: OrderKind,
  orderIn: (handled: { readonly state: State }) => Effect.Effect<Order, NoOrder, Needs>,
) {
  const { merchantId, orderNo } = command
  const handled = yield* handleCommandOnNewStream(aggregate, streamId, command, undefined, [
    orderIndexPart(merchantId, orderNo, kind, streamId),
  ])
  const order = yield* orderIn(handled)
  if (!handled.alongsideWritten) yield* indexOrderNo(merchantId, order.orderNo, kind, streamId)
  return order
})
