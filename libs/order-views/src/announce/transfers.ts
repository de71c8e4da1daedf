/**
 * The transfer side of the notifier's source: a status change of a wallet
 * transfer (`transferOrder`), a bank transfer (`transferToBankOrder`,
 * CREATED to SUCCESS or FAILURE: spec, Events), a bank card transfer
 * (`transferBankCardOrder`) whose request carried a notifyUrl, and every
 * status of a virtual-account deposit (`vamDepositOrder`, to the merchant's
 * configured vamNotifyUrl, recorded on the deposit when it arrived). The
 * order is the query operation's shape as of that change, in wire form.
 * Which events are status changes is each aggregate's `announcedEvents`.
 */
import { BankCardTransfer } from "@mizan/card-transfer"
import type { Aggregate, EventStore, RecordedEvent, StoreError } from "@mizan/eventsourcing"
import { encodeWire, type NotificationOrderKey, type NotificationOrders, notificationOrders } from "@mizan/protocol"
import { BankTransfer, VamDeposit, WalletTransfer } from "@mizan/transfer"
import { Effect, Option } from "effect"
import type { Announcement } from "../announcement.ts"
import {
  toWireBankCardOrder,
  toWireTransferOrder,
  toWireTransferToBankOrder,
  toWireVamDepositOrder,
} from "../views/transfers.ts"
import { stateAt } from "./stateAt.ts"

/** What every transfer order knows of its notification: its merchant and where to tell it. */
interface Notifiable {
  readonly merchantId: string
  readonly notifyUrl?: string
}

type Unplaced = { readonly status: "ABSENT" }

const isPlaced = <Order>(state: Unplaced | Order): state is Order => (state as Unplaced).status !== "ABSENT"

/** One kind of transfer order the notifier announces: which events, under which key, in which shape. */
interface AnnouncedKind {
  readonly announces: (eventType: string) => boolean
  readonly describe: (event: RecordedEvent) => Effect.Effect<Option.Option<Announcement>, StoreError, EventStore>
}

const announcedKind = <Order extends Notifiable, Key extends NotificationOrderKey>(
  // biome-ignore lint/suspicious/noExplicitAny: only the state is read here; commands and events stay the aggregate's own
  aggregate: Aggregate<any, any, Unplaced | Order, any>,
  announcedEvents: ReadonlyArray<string>,
  orderKey: Key,
  toWire: (order: Order) => NotificationOrders[Key]["Type"],
): AnnouncedKind => {
  const announced = new Set(announcedEvents)
  return {
    announces: (eventType) => announced.has(eventType),
    describe: (event) =>
      Effect.map(stateAt(aggregate, event.streamId, event.streamVersion), (state) => {
        if (!isPlaced(state) || state.notifyUrl === undefined) return Option.none()
        // The notification's order schema is the query operation's order shape.
        const order = encodeWire(notificationOrders[orderKey], toWire(state), orderKey)
        return Option.some({
          merchantId: state.merchantId,
          notifyUrl: state.notifyUrl,
          orderKey,
          order: order as Announcement["order"],
          orderingKey: event.streamId,
        })
      }),
  }
}

const announcedKinds: ReadonlyArray<AnnouncedKind> = [
  announcedKind(WalletTransfer.aggregate, WalletTransfer.announcedEvents, "transferOrder", toWireTransferOrder),
  announcedKind(BankTransfer.aggregate, BankTransfer.announcedEvents, "transferToBankOrder", toWireTransferToBankOrder),
  announcedKind(
    BankCardTransfer.aggregate,
    BankCardTransfer.announcedEvents,
    "transferBankCardOrder",
    toWireBankCardOrder,
  ),
  announcedKind(VamDeposit.aggregate, VamDeposit.announcedEvents, "vamDepositOrder", toWireVamDepositOrder),
]

/** The announcement a recorded event makes, if it is a transfer's status change and the order has a notifyUrl. */
export const describeTransferEvent = (
  event: RecordedEvent,
): Effect.Effect<Option.Option<Announcement>, StoreError, EventStore> => {
  const kind = announcedKinds.find((candidate) => candidate.announces(event.type))
  return kind === undefined ? Effect.succeed(Option.none()) : kind.describe(event)
}
