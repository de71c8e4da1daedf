/** Shared test data: a notification's details and commands at given minutes past a fixed start. */
import { minuteMs, type Timestamp } from "@mizan/kernel"
import type { Command as NotificationCommand } from "../src/notification.ts"
import { notificationDetails, notificationsFrom } from "../src/testing/index.ts"

/** The kit's notification and start time: the tests and the kit's histories speak of the same one. */
export const startMs: number = notificationsFrom

export const atMinute = (minutes: number): Timestamp => (startMs + minutes * minuteMs) as Timestamp

export const details = notificationDetails

export const schedule = (minute = 0): NotificationCommand => ({ _tag: "Schedule", ...details, at: atMinute(minute) })

export const failAt = (minute: number): NotificationCommand => ({
  _tag: "RecordAttempt",
  at: atMinute(minute),
  outcome: { _tag: "HttpStatus", statusCode: 503 },
})

export const deliverAt = (minute: number): NotificationCommand => ({
  _tag: "RecordAttempt",
  at: atMinute(minute),
  outcome: { _tag: "Delivered", statusCode: 200 },
})

export const resendAt = (minute: number, requestedBy = "ops@mizan"): NotificationCommand => ({
  _tag: "Resend",
  at: atMinute(minute),
  requestedBy,
})

/** The minutes of the eight attempts of a round that always fails on time: +0, +2, +12, +22, +82, +202, +562, +1462. */
export const onTimeAttemptMinutes = [0, 2, 12, 22, 82, 202, 562, 1462]
