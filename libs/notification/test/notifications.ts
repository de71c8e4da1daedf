/** Shared test data: the kit's notification and its commands at given minutes past its start, under short names. */
export {
  attemptDeliveredAt as deliverAt,
  attemptFailedAt as failAt,
  notificationAtMinute as atMinute,
  notificationDetails as details,
  resendAt,
  scheduleNotificationAt as schedule,
} from "../src/testing/index.ts"

/** The minutes of the eight attempts of a round that always fails on time: +0, +2, +12, +22, +82, +202, +562, +1462. */
export const onTimeAttemptMinutes = [0, 2, 12, 22, 82, 202, 562, 1462]
