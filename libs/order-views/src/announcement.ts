/**
 * What a notification says, and who decides it: the service's knowledge of
 * its orders, which the notifier only delivers.
 */
import type { EventStore, RecordedEvent, StoreError } from "@mizan/eventsourcing"
import { NotificationDetails } from "@mizan/notification"
import { type Effect, type Option, Schema } from "effect"

const { merchantId, notifyUrl, orderKey, order, orderingKey } = NotificationDetails.fields

/**
 * A status change the merchant is told about: what to announce, and the
 * order object as the query operation shows it (JSON, as of this status
 * change). `orderingKey` is the order's stream id: notifications with the
 * same key go out one at a time, in the order of the events that announced them.
 */
export const Announcement = Schema.Struct({ merchantId, notifyUrl, orderKey, order, orderingKey })
export type Announcement = typeof Announcement.Type

/**
 * Says which recorded events announce a status change. It sees every event of
 * the global log except the notifier's own, in log order, and may read the
 * store (to find an order's notifyUrl, say).
 */
export interface NotificationSource {
  readonly describe: (event: RecordedEvent) => Effect.Effect<Option.Option<Announcement>, StoreError, EventStore>
}
