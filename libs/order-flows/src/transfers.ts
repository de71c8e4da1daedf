/**
 * Reading and moving transfer orders, shared by the merchant API's transfer
 * operations and the sandbox's transfer helpers: naming an order (by the
 * merchant's number or the service's), loading it, running a command on it,
 * and handing a CREATED payout to its bank.
 */
import { type BankCardTransfer, type CardNumber, CardPayoutBank, type ClearCardHolder } from "@mizan/card-transfer"
import { type Aggregate, handleCommand, loadAggregate } from "@mizan/eventsourcing"
import { namesNoOrder } from "@mizan/kernel"
import { BankTransfer } from "@mizan/transfer"
import { Effect } from "effect"
import { type CreatesNumberedOrder, createIndexedOrder } from "./createIndexed.ts"
import type { OrderName } from "./flows.ts"
import { findByOrderNo, type OrderKind } from "./orderIndex.ts"

/** Every transfer aggregate's state is "ABSENT" until its order is placed. */
type PlacedOf<State> = Exclude<State, { readonly status: "ABSENT" }>

const isPlaced = <State extends { readonly status: string }>(state: State): state is PlacedOf<State> =>
  state.status !== "ABSENT"

/** 62004: the merchant has no order under this merchantOrderNo (another merchant's orders read as absent). */
const noSuchOrder = () => namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "merchantOrderNo")

/**
 * The stream of a merchant's transfer order, named either way: 62035
 * ORDER_NO_NOT_EXIST when an orderNo names nothing of this kind of this
 * merchant's. A merchantOrderNo always names a stream; whether it holds an
 * order, loading or the command decides (62004).
 */
export const transferStreamOf = Effect.fn("OrderFlows.transferStreamOf")(function* (
  merchantId: string,
  name: OrderName,
  kind: OrderKind,
  streamIdOf: (merchantId: string, merchantOrderNo: string) => string,
) {
  if (name.merchantOrderNo !== undefined) return streamIdOf(merchantId, name.merchantOrderNo)
  const streamId = yield* findByOrderNo(merchantId, name.orderNo ?? "", kind)
  if (streamId === undefined) return yield* Effect.fail(namesNoOrder("ORDER_NO_NOT_EXIST", "orderNo"))
  return streamId
})

/** The order on a stream as it is now, or 62004. */
export const placedOrder = <Command, Event, State extends { readonly status: string }, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
) =>
  Effect.flatMap(loadAggregate(aggregate, streamId), ({ state }) =>
    isPlaced(state) ? Effect.succeed(state) : Effect.fail(noSuchOrder()),
  )

/** The order a command left, or 62004 when the stream holds none. */
const placedIn = <State extends { readonly status: string }>({ state }: { readonly state: State }) =>
  isPlaced(state) ? Effect.succeed(state) : Effect.fail(noSuchOrder())

/** Runs a command on a transfer order and answers the order after it. */
export const onTransfer = <Command, Event, State extends { readonly status: string }, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  command: Command,
) => Effect.flatMap(handleCommand(aggregate, streamId, command), placedIn)

/** A transfer aggregate's state: no order yet, or an order with the service's number. */
type NumberedState = { readonly status: "ABSENT" } | { readonly status: string; readonly orderNo: string }

/**
 * Places a transfer order and indexes its orderNo in the same write; a
 * repeat the decider takes answers the first order and indexes its number
 * (`createIndexedOrder`). A repeat it refuses (a card transfer's 62029,
 * 62028, 62002) indexes nothing: the caller heals that one itself.
 */
export const placeTransfer = <Command, Event, State extends NumberedState, Error>(
  aggregate: Aggregate<Command, Event, State, Error>,
  streamId: string,
  command: Command & CreatesNumberedOrder,
  kind: OrderKind,
) => createIndexedOrder(aggregate, streamId, command, kind, placedIn<State>)

/**
 * Hands a CREATED bank transfer to the bank with the beneficiary's clear
 * values (the only place they go). The bank takes a repeat by orderNo, so a
 * retried request submits again safely. When the bank is unavailable the
 * order stays CREATED and the merchant still gets it: the log says so,
 * naming the order and never the beneficiary.
 */
export const submitBankTransfer = (
  order: BankTransfer.BankTransferOrder,
  beneficiary: BankTransfer.ClearBeneficiary,
  traceCode: string,
) =>
  Effect.flatMap(BankTransfer.PayoutBank, (bank) => bank.submitBankTransfer(order, beneficiary)).pipe(
    Effect.catchTag("BankUnavailable", (unavailable) =>
      Effect.logWarning(`${traceCode} bank transfer ${order.orderNo} stays CREATED: ${unavailable.detail}`),
    ),
  )

/** The same for a bank card payout: the clear card number and names go to the card bank and nowhere else. */
export const submitCardPayout = (
  order: BankCardTransfer.BankCardTransferOrder,
  cardNumber: CardNumber,
  holder: ClearCardHolder,
  traceCode: string,
) =>
  Effect.flatMap(CardPayoutBank, (bank) => bank.submitCardPayout(order, cardNumber, holder)).pipe(
    Effect.catchTag("CardPayoutBankUnavailable", (unavailable) =>
      Effect.logWarning(`${traceCode} bank card transfer ${order.orderNo} stays CREATED: ${unavailable.detail}`),
    ),
  )
