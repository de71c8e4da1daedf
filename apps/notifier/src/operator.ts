/**
 * What an operator does with notifications: read one, and send a delivered
 * or given-up one again. A resend is an event in the notification's stream;
 * the running notifier (in this process or another) reads it from the log
 * and delivers the new round on the same schedule, with the same notify_id.
 */
import { decodeRecord, EventStore, handleCommand, loadAggregate } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { describeOutcome, Notification, NotificationRefused } from "@mizan/notification"
import { MerchantClocks } from "@mizan/test-clock"
import { Clock, Effect } from "effect"

/** An operator's name, as the Resent event records it. */
export const requestedByLengthMax = 100

/** The notification's state, `ABSENT` when there is none with this notify_id. */
export const readNotification = (notifyId: string) =>
  Effect.map(
    loadAggregate(Notification.aggregate, Notification.streamId(notifyId)),
    ({ state }): Notification.State => state,
  )

/** One line of a notification's history, as `notifier show` lists it. */
export interface HistoryLine {
  /** On the merchant's time, as the notification's own events are. */
  readonly at: Timestamp
  readonly what: string
}

/**
 * Everything that happened to a notification, oldest first: when it was
 * scheduled, every attempt with its HTTP status or error and the start of
 * the merchant's answer, resends and the giving up.
 */
export const attemptHistory = Effect.fn("Notifier.history")(function* (notifyId: string) {
  const streamId = Notification.streamId(notifyId)
  // A notification's stream is a few events a round: read whole.
  const records = yield* (yield* EventStore).readStream(streamId)
  const lines: Array<HistoryLine> = []
  for (const record of records) {
    const event = yield* decodeRecord(Notification.aggregate.codec, record)
    switch (event._tag) {
      case "NotificationScheduled":
        lines.push({ at: event.at, what: `scheduled, to ${event.notifyUrl}` })
        break
      case "NotificationAttempted":
        lines.push({
          at: event.at,
          what: `attempt ${event.attempt} of round ${event.round}: ${describeOutcome(event.outcome)}`,
        })
        break
      case "NotificationResent":
        lines.push({ at: event.at, what: `resent by ${event.requestedBy}` })
        break
      case "NotificationGivenUp":
        lines.push({
          at: event.at,
          what: `given up: ${event.reason._tag === "UrlRefused" ? event.reason.detail : "every attempt of the round failed"}`,
        })
        break
    }
  }
  return lines
})

/** Opens a new round of attempts for a delivered or given-up notification, due at once. */
export const resendNotification = Effect.fn("Notifier.resend")(function* (notifyId: string, requestedBy: string) {
  const by = requestedBy.trim()
  if (by.length === 0 || by.length > requestedByLengthMax)
    return yield* new NotificationRefused({
      notifyId,
      detail: `the operator's name must be 1 to ${requestedByLengthMax} characters`,
    })
  // The resend is recorded on the merchant's time, as everything of its merchant is (sandbox test clocks).
  const streamId = Notification.streamId(notifyId)
  const { state } = yield* loadAggregate(Notification.aggregate, streamId)
  const clocks = new MerchantClocks(yield* Clock.Clock)
  const merchantId = state.status === "ABSENT" ? undefined : state.notification.merchantId
  if (merchantId !== undefined) yield* clocks.ensureLoaded(merchantId)
  const handled = yield* handleCommand(Notification.aggregate, streamId, {
    _tag: "Resend",
    at: merchantId === undefined ? (clocks.realNow() as Timestamp) : clocks.nowOf(merchantId),
    requestedBy: by,
  }).pipe(
    Effect.provideService(Clock.Clock, merchantId === undefined ? yield* Clock.Clock : clocks.clockOf(merchantId)),
    Effect.catchTag("NotificationRefused", (refused) =>
      Effect.fail(new NotificationRefused({ notifyId, detail: refused.detail })),
    ),
  )
  return handled.state
})
