/**
 * `@mizan/notification/testing`: the property-testing kit of the
 * notification. Arbitraries of whole histories decided by the real
 * aggregate (`validNotificationHistories`, `notificationRetries`) and its
 * laws (`notificationRulesHold`, `notificationLifecycleHolds`,
 * `notificationScheduleHolds`). Needs fast-check.
 */
export * from "./histories.ts"
export * from "./laws.ts"
