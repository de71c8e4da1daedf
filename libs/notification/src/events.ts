import { makeEventCodec } from "@mizan/eventsourcing"
import { RequiredString, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { OrderKey } from "./orderKey.ts"
import { AttemptOutcome, GiveUpReason } from "./outcome.ts"
import { attemptsPerRoundMax } from "./schedule.ts"

/**
 * What a notification is about, fixed when it is scheduled: who gets it,
 * where, and the order object as of the status change it announces (in the
 * shape the query operation returns, under `orderKey`).
 */
export const NotificationDetails = Schema.Struct({
  /** The body's `notify_id`: the same on every attempt and every resend. */
  notifyId: RequiredString(64),
  merchantId: RequiredString(64),
  /** As the order's request gave it; checked before every attempt, never trusted. */
  notifyUrl: Schema.String,
  orderKey: OrderKey,
  order: Schema.JsonObject,
  /**
   * The order's stream id: notifications with the same key go out in the
   * order their status changes happened, one at a time.
   */
  orderingKey: Schema.NonEmptyString,
  /** The recorded event that announced the status change. */
  sourceEventId: Schema.NonEmptyString,
  /** Its place in the global log: orders notifications of one order. */
  sourcePosition: Schema.BigIntFromString,
})
export type NotificationDetails = typeof NotificationDetails.Type

const Round = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: "must be 1 or more" }))
const AttemptNumber = Schema.Int.check(
  Schema.isBetween(
    { minimum: 1, maximum: attemptsPerRoundMax },
    { message: `must be from 1 to ${attemptsPerRoundMax}` },
  ),
)

export const NotificationScheduled = Schema.TaggedStruct("NotificationScheduled", {
  ...NotificationDetails.fields,
  at: Timestamp,
})

/** One attempt and what it came to; `attempt` counts within the round. */
export const NotificationAttempted = Schema.TaggedStruct("NotificationAttempted", {
  round: Round,
  attempt: AttemptNumber,
  at: Timestamp,
  outcome: AttemptOutcome,
})

export const NotificationGivenUp = Schema.TaggedStruct("NotificationGivenUp", {
  at: Timestamp,
  reason: GiveUpReason,
})

/** An operator re-opened a delivered or given-up notification for a new round of attempts. */
export const NotificationResent = Schema.TaggedStruct("NotificationResent", {
  round: Round,
  at: Timestamp,
  requestedBy: RequiredString(100),
})

export const NotificationEvent = Schema.Union([
  NotificationScheduled,
  NotificationAttempted,
  NotificationGivenUp,
  NotificationResent,
])
export type NotificationEvent = typeof NotificationEvent.Type

/** Every event type at version 1; test/fixtures holds recorded histories that must keep replaying. */
export const notificationEventCodec = makeEventCodec(NotificationEvent, {
  NotificationScheduled: { current: 1 },
  NotificationAttempted: { current: 1 },
  NotificationGivenUp: { current: 1 },
  NotificationResent: { current: 1 },
})

/** The stored `type` of the events that open a round of attempts. */
export const roundOpeningEventTypes: ReadonlySet<string> = new Set(["NotificationScheduled", "NotificationResent"])
