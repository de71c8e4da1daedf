/**
 * `@mizan/notification/testing`: the property-testing kit of the
 * notification. Arbitraries of whole histories decided by the real
 * aggregate (`validNotificationHistories`, `notificationRetries`) and its
 * laws (`notificationRulesHold`, `notificationLifecycleHolds`,
 * `notificationScheduleHolds`), and the commands they are made of
 * (`scheduleNotificationAt`, `attemptFailedAt`, ...). Needs fast-check.
 */
export * from "./builders.ts"
export * from "./histories.ts"
export * from "./laws.ts"
