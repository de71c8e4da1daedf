/**
 * The notification aggregate, reached as `Notification.<name>`: the names
 * every Mizan aggregate has (`aggregate`, `streamId`, `Command`, `Event`,
 * `State`, `initialState`, `decide`, `evolve`, `invariants`) and the rest of
 * its vocabulary (the commands and events one by one, the states).
 */

export {
  isNotificationStream as isStream,
  notificationAggregate as aggregate,
  notificationStreamId as streamId,
  notificationStreamPrefix as streamPrefix,
} from "./aggregate.ts"
export { NotificationCommand as Command, RecordAttempt, RefuseUrl, Resend, Schedule } from "./commands.ts"
export * from "./decide.ts"
export {
  NotificationAttempted,
  NotificationEvent as Event,
  NotificationGivenUp,
  NotificationResent,
  NotificationScheduled,
  notificationEventCodec as eventCodec,
  roundOpeningEventTypes,
} from "./events.ts"
export * from "./evolve.ts"
export * from "./invariants.ts"
export * from "./state.ts"
