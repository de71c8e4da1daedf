/**
 * The notification source of the tests: an order's status change is an
 * event of type OrderStatusChanged whose data is the announcement, and the
 * order's stream orders its notifications.
 */
import type { RecordedEvent } from "@mizan/eventsourcing"
import type { Announcement, NotificationSource } from "@mizan/order-views"
import { Effect, Option } from "effect"

/** The events of the test source: an order's status changed, with the announcement it makes. */
export const statusChangedType = "OrderStatusChanged"

export const notificationSource: NotificationSource = {
  describe: (event: RecordedEvent) =>
    Effect.succeed(
      event.type === statusChangedType
        ? Option.some({ ...(event.data as Omit<Announcement, "orderingKey">), orderingKey: event.streamId })
        : Option.none(),
    ),
}
