export { notificationBody } from "./body.ts"
export { keepNotifierRunning, runNotifier } from "./notifier.ts"
export { notifyIdFor } from "./notifyId.ts"
export { attemptHistory, readNotification, requestedByLengthMax, resendNotification } from "./operator.ts"
export { type NotifierOptions, notifierDefaults } from "./options.ts"
export { NotifierProgress, type NotifierStatus } from "./progress.ts"
export {
  checkNotifyUrl,
  type NotifierMode,
  notifyUrlLengthMax,
  type ResolvedAddress,
  type ResolveHost,
  type UrlVerdict,
} from "./urlPolicy.ts"
