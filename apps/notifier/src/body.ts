import { formatCompactUtc, type Timestamp } from "@mizan/kernel"
import type { NotificationDetails } from "@mizan/notification"
import { notificationCharset } from "@mizan/protocol"

/**
 * The notification body (docs/api.md#notifications): `notify_id`,
 * `notify_timestamp` in ms, the deprecated `notify_time` and
 * `_input_charset`, then the order object under its key. Made anew for every
 * attempt, since the time is the time of sending; signed as these exact bytes.
 * The order was recorded in its wire shape when the notification was
 * scheduled, so it goes out exactly as recorded (protocol's
 * `buildNotification` encodes an order from its domain form instead).
 */
export const notificationBody = (notification: NotificationDetails, sentAt: Timestamp): Uint8Array =>
  Buffer.from(
    JSON.stringify({
      notify_id: notification.notifyId,
      notify_timestamp: sentAt,
      notify_time: formatCompactUtc(sentAt),
      _input_charset: notificationCharset,
      [notification.orderKey]: notification.order,
    }),
    "utf8",
  )
