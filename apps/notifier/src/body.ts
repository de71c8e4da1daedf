import type { Timestamp } from "@mizan/kernel"
import type { NotificationDetails } from "@mizan/notification"
import { notificationBody as bodyText } from "@mizan/protocol"

/**
 * The bytes of a notification's attempt at `sentAt` (docs/api.md#notifications).
 * The order was recorded in its wire shape when the notification was
 * scheduled, so it goes out exactly as recorded.
 */
export const notificationBody = (notification: NotificationDetails, sentAt: Timestamp): Uint8Array =>
  Buffer.from(
    bodyText({ notifyId: notification.notifyId, orderKey: notification.orderKey, order: notification.order }, sentAt),
    "utf8",
  )
