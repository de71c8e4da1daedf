/**
 * @mizan/notification: the notification aggregate as the namespace
 * `Notification` (README.md says the cut), and at top level what the
 * notifier and the announcing side share with it: the details a
 * notification is scheduled with, how an attempt ended, the retry schedule
 * and the ordering key.
 */
export { NotificationDetails } from "./events.ts"
export * as Notification from "./notification.ts"
export * from "./orderKey.ts"
export * from "./outcome.ts"
export * from "./refusal.ts"
export * from "./schedule.ts"
