/**
 * The notification's laws as reusable properties over a stream's events
 * (from `validNotificationHistories`, or read back from your store): each
 * throws `LawBroken` naming the rule and the step.
 */
import {
  LawBroken,
  type LifecycleLaw,
  lifecycleHolds,
  rulesHoldThroughout,
  type StreamLaw,
} from "@mizan/eventsourcing/testing/properties"
import { notificationAggregate } from "../aggregate.ts"
import type { NotificationEvent } from "../events.ts"
import { invariants } from "../invariants.ts"
import type { State } from "../state.ts"

/**
 * What every law throws, and the laws over retries, from
 * `@mizan/eventsourcing/testing`. A notification's commands name no round
 * (an attempt recorded at the same minute after a resend is the next
 * round's), so its retries are judged right after their original:
 * `retriesRightAfterDecideNothing`.
 */
/** Reads one of your streams back from the store, decoded, to hold a law to: `readEvents(Notification, notifyId)`. */
export {
  LawBroken,
  readEvents,
  retriesDecideNothing,
  retriesRightAfterDecideNothing,
} from "@mizan/eventsourcing/testing/properties"

/**
 * Every rule of the notification's `invariants` holds after every append.
 *
 *   fc.property(validNotificationHistories, (h) => void notificationRulesHold(h.appends))
 */
export const notificationRulesHold: StreamLaw<NotificationEvent, State> = rulesHoldThroughout(
  notificationAggregate,
  invariants,
  "the notification's rules hold",
)

type Status = State["status"]

/**
 * The events follow the notification's lifecycle, read from the events
 * alone: scheduled, then attempts until one is acknowledged (DELIVERED) or
 * it is given up (GIVEN_UP); only a resend opens either again.
 *
 *   notificationLifecycleHolds(eventsOfMyNotificationStream)
 */
export const notificationLifecycleHolds: LifecycleLaw<NotificationEvent, Status> = lifecycleHolds(
  "ABSENT",
  (event, before) => {
    switch (event._tag) {
      case "NotificationScheduled":
      case "NotificationResent":
        return "PENDING"
      case "NotificationAttempted":
        return event.outcome._tag === "Delivered" ? "DELIVERED" : before
      case "NotificationGivenUp":
        return "GIVEN_UP"
    }
  },
  { ABSENT: ["PENDING"], PENDING: ["DELIVERED", "GIVEN_UP"], DELIVERED: ["PENDING"], GIVEN_UP: ["PENDING"] },
  "the notification's lifecycle holds",
)

/** The spec's retry schedule: the minutes after each failed attempt of a round before the next, written here apart. */
const retryGapsMinutes = [2, 10, 10, 60, 120, 360, 900]

/**
 * The attempts keep the spec's schedule, read from the events alone: at
 * most 8 a round, numbered 1, 2, ... in their round, the first not before
 * the round opened, each next one at least 2, 10, 10, 60, 120, 360, 900
 * minutes after the one before.
 *
 *   notificationScheduleHolds(eventsOfMyNotificationStream)
 */
export const notificationScheduleHolds = (events: Iterable<NotificationEvent>): void => {
  let round = { number: 1, openedAt: 0, attempts: 0, lastAt: 0 }
  let step = 0
  for (const event of events) {
    step += 1
    const broken = (rule: string, detail: string) =>
      new LawBroken({ law: "the notification's schedule holds", rule, step, what: event._tag, detail })
    if (event._tag === "NotificationScheduled") round = { number: 1, openedAt: event.at, attempts: 0, lastAt: 0 }
    if (event._tag === "NotificationResent") round = { number: event.round, openedAt: event.at, attempts: 0, lastAt: 0 }
    if (event._tag !== "NotificationAttempted") continue
    const attempt = round.attempts + 1
    if (event.round !== round.number || event.attempt !== attempt)
      throw broken("attempts are numbered in their round", `round ${event.round} attempt ${event.attempt}`)
    if (attempt > retryGapsMinutes.length + 1) throw broken("at most 8 attempts a round", `attempt ${attempt}`)
    const dueAt = attempt === 1 ? round.openedAt : round.lastAt + (retryGapsMinutes[attempt - 2] ?? 0) * 60_000
    if (event.at < dueAt) throw broken("no attempt before it is due", `at ${event.at}, due at ${dueAt}`)
    round = { ...round, attempts: attempt, lastAt: event.at }
  }
}
