/**
 * One notification's commands at given minutes past a fixed start, as the
 * notifier sends them: the kit's histories are made of these, and a
 * platform's tests can speak of the same notification.
 */
import { minuteMs, type Timestamp, timestamp } from "@mizan/kernel"
import type { NotificationCommand } from "../commands.ts"
import type { NotificationDetails } from "../events.ts"

/** 2026-11-21T09:00:00Z: when the notifications here are scheduled. */
export const notificationsFrom: Timestamp = timestamp(Date.UTC(2026, 10, 21, 9))

/** The notification of an acquiring order's SUCCESS, as the notifier schedules it. */
export const notificationDetails: NotificationDetails = {
  notifyId: "a3f1c2d4e5b60718293a4b5c6d7e8f90",
  merchantId: "M100000001",
  notifyUrl: "https://merchant.example/notify",
  orderKey: "acquireOrder",
  order: { orderNo: "2026112100000001", merchantOrderNo: "ORD-1", status: "SUCCESS" },
  orderingKey: "acquiring-M100000001-ORD-1",
  sourceEventId: "0d6c9c2e-6b8f-4f57-9d4e-2d7f1c1b0a11",
  sourcePosition: 41n,
}

/** `minutes` after `notificationsFrom`. */
export const notificationAtMinute = (minutes: number): Timestamp => timestamp(notificationsFrom + minutes * minuteMs)

/** `notificationDetails` scheduled `minute` minutes after `notificationsFrom`. */
export const scheduleNotificationAt = (minute = 0): NotificationCommand => ({
  _tag: "Schedule",
  ...notificationDetails,
  at: notificationAtMinute(minute),
})

/** An attempt the merchant answered with 503. */
export const attemptFailedAt = (minute: number): NotificationCommand => ({
  _tag: "RecordAttempt",
  at: notificationAtMinute(minute),
  outcome: { _tag: "HttpStatus", statusCode: 503 },
})

/** An attempt the merchant acknowledged. */
export const attemptDeliveredAt = (minute: number): NotificationCommand => ({
  _tag: "RecordAttempt",
  at: notificationAtMinute(minute),
  outcome: { _tag: "Delivered", statusCode: 200 },
})

/** The notifyUrl refused by the URL policy (a private address). */
export const urlRefusedAt = (minute: number): NotificationCommand => ({
  _tag: "RefuseUrl",
  at: notificationAtMinute(minute),
  reason: { _tag: "UrlRefused", detail: "10.1.2.3 is a private address" },
})

/** An operator's resend. */
export const resendAt = (minute: number, requestedBy = "ops@mizan"): NotificationCommand => ({
  _tag: "Resend",
  at: notificationAtMinute(minute),
  requestedBy,
})
