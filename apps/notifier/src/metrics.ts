/**
 * What an operator watches to know whether delivery is healthy: attempts by
 * what they came to, how many notifications wait, and how long the oldest
 * has waited. A growing oldest age with few attempts means the notifier is
 * stuck; many failed attempts to one merchant mean its endpoint is.
 */
import type { AttemptOutcome } from "@mizan/notification"
import { Effect, Metric } from "effect"
import type { PendingNotifications } from "./pending.ts"

export const notificationAttempts = Metric.counter("mizan_notification_attempts_total", {
  description:
    "Notification attempts, by outcome: delivered, http_status, bad_answer, timeout, connection_failed or url_refused",
  incremental: true,
})

export const notificationsPending = Metric.gauge("mizan_notifications_pending", {
  description: "Notifications waiting for their next attempt",
})

export const oldestPendingAgeSeconds = Metric.gauge("mizan_notification_oldest_pending_age_seconds", {
  description: "How long the oldest pending notification has waited since its round opened, in seconds",
})

const outcomeNames = {
  Delivered: "delivered",
  HttpStatus: "http_status",
  BadAnswer: "bad_answer",
  Timeout: "timeout",
  ConnectionFailed: "connection_failed",
} as const satisfies Record<AttemptOutcome["_tag"], string>

export type AttemptResult = AttemptOutcome["_tag"] | "UrlRefused"

export const countAttempt = (result: AttemptResult) =>
  Metric.update(
    Metric.withAttributes(notificationAttempts, {
      outcome: result === "UrlRefused" ? "url_refused" : outcomeNames[result],
    }),
    1,
  )

/** How often the pending gauges are brought up to date. */
export const pendingMetricsIntervalMs = 1_000

/**
 * Waits `ms` of real time. The gauges are refreshed on the wall clock, not
 * the fiber's: a test clock moved a day ahead must not replay a day of refreshes.
 */
const realTimeSleep = (ms: number) =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), ms)
    return Effect.sync(() => clearTimeout(timer))
  })

/** Keeps the pending gauges current, for as long as it runs. */
export const reportPending = (pending: PendingNotifications) =>
  Effect.suspend(() => {
    const oldest = pending.oldestRoundOpenedAt()
    return Effect.all(
      [
        Metric.update(notificationsPending, pending.size),
        Metric.update(oldestPendingAgeSeconds, oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000)),
      ],
      { discard: true },
    )
  }).pipe(Effect.andThen(realTimeSleep(pendingMetricsIntervalMs)), Effect.forever)
