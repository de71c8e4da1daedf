/**
 * Whole notification histories for a platform's property tests, decided by
 * the real `Notification.aggregate`: a notification scheduled, then attempts
 * (failing in each way the spec counts, or acknowledged), refused URLs and
 * operators' resends, minutes apart on the retry schedule or at random,
 * with and without late retries. The laws they must keep are in `laws.ts`.
 */
import { validHistories, withRetries } from "@mizan/eventsourcing/testing/properties"
import fc from "fast-check"
import { notificationAggregate } from "../aggregate.ts"
import type { NotificationCommand } from "../commands.ts"
import type { AttemptOutcome } from "../outcome.ts"
import { notificationAtMinute, resendAt, scheduleNotificationAt, urlRefusedAt } from "./builders.ts"

const failures: ReadonlyArray<AttemptOutcome> = [
  { _tag: "HttpStatus", statusCode: 503 },
  { _tag: "BadAnswer", statusCode: 200 },
  { _tag: "Timeout", afterMs: 10_000 },
  { _tag: "ConnectionFailed", code: "ECONNREFUSED" },
]

type Shape =
  | { readonly _tag: "Schedule" }
  | { readonly _tag: "RecordAttempt"; readonly outcome: AttemptOutcome }
  | { readonly _tag: "RefuseUrl" }
  | { readonly _tag: "Resend"; readonly requestedBy: string }

/** One command, attempts most often, after some minutes: on the retry schedule's gaps, one less, or any. */
const step = fc.record({
  waitMinutes: fc.oneof(fc.constantFrom(0, 1, 2, 9, 10, 60, 120, 360, 900), fc.integer({ min: 0, max: 2_000 })),
  shape: fc.oneof(
    { weight: 1, arbitrary: fc.constant<Shape>({ _tag: "Schedule" }) },
    {
      weight: 8,
      arbitrary: fc.constantFrom(...failures).map((outcome): Shape => ({ _tag: "RecordAttempt", outcome })),
    },
    {
      weight: 2,
      arbitrary: fc.constant<Shape>({ _tag: "RecordAttempt", outcome: { _tag: "Delivered", statusCode: 200 } }),
    },
    { weight: 1, arbitrary: fc.constant<Shape>({ _tag: "RefuseUrl" }) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom("ops@mizan", "oncall@mizan")
        .map((requestedBy): Shape => ({ _tag: "Resend", requestedBy })),
    },
  ),
})

const commandAt = (minute: number, shape: Shape): NotificationCommand => {
  switch (shape._tag) {
    case "Schedule":
      return scheduleNotificationAt(minute)
    case "RecordAttempt":
      return { _tag: "RecordAttempt", at: notificationAtMinute(minute), outcome: shape.outcome }
    case "RefuseUrl":
      return urlRefusedAt(minute)
    case "Resend":
      return resendAt(minute, shape.requestedBy)
  }
}

/**
 * Sequences of commands against one notification, in time order: scheduled
 * first, then up to 60 attempts, refusals and resends.
 *
 *   fc.property(notificationCommands, (commands) => myNotifierStandIn.run(commands))
 */
export const notificationCommands: fc.Arbitrary<ReadonlyArray<NotificationCommand>> = fc
  .array(step, { minLength: 1, maxLength: 60 })
  .map((steps) => {
    let minute = 0
    return [
      commandAt(0, { _tag: "Schedule" }),
      ...steps.map(({ waitMinutes, shape }) => {
        minute += waitMinutes
        return commandAt(minute, shape)
      }),
    ]
  })

/**
 * Histories of `notificationCommands`, decided by the real notification.
 *
 *   fc.property(validNotificationHistories, (h) => void notificationScheduleHolds(h.events))
 */
export const validNotificationHistories = validHistories(notificationAggregate, notificationCommands)

/**
 * `validNotificationHistories` with accepted commands sent again right
 * after their original: an attempt's record appended twice after a crash, a
 * resend clicked twice. Only right after: a notification's commands come
 * from its one notifier, which retries before it sends anything else, and a
 * command retried after later ones is not a repeat to the notification (a
 * RefuseUrl of round 1 sent again after an operator's resend gives round 2
 * up; `test/kit.spec.ts` shows it).
 *
 *   fc.property(notificationRetries, (h) => retriesRightAfterDecideNothing(Notification.aggregate)(h.commands))
 */
export const notificationRetries = withRetries(notificationAggregate, notificationCommands, { commandsLaterMax: 0 })
