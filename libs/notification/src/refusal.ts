import { Schema } from "effect"

/**
 * A notification command that does not apply to the notification's state
 * (an attempt before it is due, a resend of one still being delivered).
 * Notifications are the service's own business, not a merchant request, so
 * no spec code goes with it: the notifier and the operator's command read
 * `detail`.
 */
export class NotificationRefused extends Schema.TaggedError<NotificationRefused>()("NotificationRefused", {
  notifyId: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `notification ${this.notifyId}: ${this.detail}`
  }
}
