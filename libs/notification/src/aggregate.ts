import type { Aggregate } from "@mizan/eventsourcing"
import type { NotificationCommand } from "./commands.ts"
import { decide } from "./decide.ts"
import { type NotificationEvent, notificationEventCodec } from "./events.ts"
import { evolve } from "./evolve.ts"
import type { NotificationRefused } from "./refusal.ts"
import { initialState, type State } from "./state.ts"

/** Every notification stream's id starts with this. */
export const notificationStreamPrefix = "notification-"

/**
 * One stream per notification, keyed by its notify_id. The notifier derives
 * the notify_id from the id of the event that announced the status change, so
 * re-reading the log after a crash lands on the same stream, where scheduling
 * again decides nothing.
 */
export const notificationStreamId = (notifyId: string): string => `${notificationStreamPrefix}${notifyId}`

export const isNotificationStream = (streamId: string): boolean => streamId.startsWith(notificationStreamPrefix)

export const notificationAggregate: Aggregate<NotificationCommand, NotificationEvent, State, NotificationRefused> = {
  initialState,
  decide,
  evolve,
  codec: notificationEventCodec,
}
