/** Shared test data: a notification's details and commands at given minutes past a fixed start. */
import { minuteMs, type Timestamp } from "@mizan/kernel"
import type { NotificationDetails } from "../src/index.ts"
import type { Command as NotificationCommand } from "../src/notification.ts"

export const startMs = Date.UTC(2026, 10, 21, 9, 0, 0)

export const atMinute = (minutes: number): Timestamp => (startMs + minutes * minuteMs) as Timestamp

export const details: NotificationDetails = {
  notifyId: "a3f1c2d4e5b60718293a4b5c6d7e8f90",
  merchantId: "M100000001",
  notifyUrl: "https://merchant.example/notify",
  orderKey: "acquireOrder",
  order: { orderNo: "2026112100000001", merchantOrderNo: "ORD-1", status: "SUCCESS" },
  orderingKey: "acquiring-M100000001-ORD-1",
  sourceEventId: "0d6c9c2e-6b8f-4f57-9d4e-2d7f1c1b0a11",
  sourcePosition: 41n,
}

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
