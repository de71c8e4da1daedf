/**
 * The merchant's side of notifications (docs/api.md#notifications):
 * verify the `sign` header over the raw body
 * before reading anything, decode the order, and drop the repeats that the
 * retry schedule sends ("the same notification may arrive more than once").
 */
import {
  decodeNotification,
  type HeadersLike,
  headerNames,
  type Notification,
  type PublicKey,
  parseJson,
  readHeader,
  verify,
} from "@mizan/protocol"
import { Result, Schema } from "effect"

export type ReceivedNotification = Notification

/** A notification that must not be processed. Answer it with a non-2xx status, never with SUCCESS. */
export class NotificationRejected extends Schema.TaggedError<NotificationRejected>()("NotificationRejected", {
  reason: Schema.Literals(["unsigned", "bad-signature", "malformed"]),
  detail: Schema.String,
}) {
  override get message(): string {
    return `notification rejected (${this.reason}): ${this.detail}`
  }
}

/**
 * Verifies and decodes a notification. `rawBody` must be the bytes exactly
 * as received (a framework's re-serialised JSON would not verify).
 */
export const verifyNotification = (
  servicePublicKey: PublicKey,
  headers: HeadersLike,
  rawBody: Uint8Array | string,
): Result.Result<ReceivedNotification, NotificationRejected> => {
  const signature = readHeader(headers, headerNames.sign)
  if (signature === undefined)
    return Result.fail(new NotificationRejected({ reason: "unsigned", detail: "no sign header" }))
  if (!verify(rawBody, signature, servicePublicKey))
    return Result.fail(
      new NotificationRejected({
        reason: "bad-signature",
        detail: "sign does not verify with the service's public key",
      }),
    )
  const parsed = parseJson(rawBody)
  if (Result.isFailure(parsed))
    return Result.fail(new NotificationRejected({ reason: "malformed", detail: parsed.failure.message }))
  return Result.mapError(
    decodeNotification(parsed.success),
    (error) => new NotificationRejected({ reason: "malformed", detail: error.message }),
  )
}

/**
 * Retries of one notification span a day (2, 10, 10, 60, 120, 360 and 900
 * minutes), so the log should hold at least a day's notifications; beyond
 * its capacity the oldest ids are forgotten, which is why handling must also
 * be idempotent on the order's state.
 */
export const defaultNotificationLogCapacityIds = 10_000

export interface NotificationLog {
  /** Whether this notify_id was already handled. */
  readonly isDuplicate: (notifyId: string) => boolean
  /**
   * Records a notify_id once it is handled, before answering SUCCESS. Not
   * before: a notification whose handling failed must be handled again when
   * the service retries it.
   */
  readonly markHandled: (notifyId: string) => void
}

/** A bounded memory of handled notify_ids, oldest forgotten first. */
export const makeNotificationLog = (capacityIds: number = defaultNotificationLogCapacityIds): NotificationLog => {
  if (!Number.isInteger(capacityIds) || capacityIds < 1)
    throw new RangeError("capacityIds must be a whole number from 1")
  const handled = new Set<string>()
  return {
    isDuplicate: (notifyId) => handled.has(notifyId),
    markHandled: (notifyId) => {
      if (handled.has(notifyId)) return
      handled.add(notifyId)
      if (handled.size > capacityIds) {
        const oldest = handled.values().next()
        if (oldest.done !== true) handled.delete(oldest.value)
      }
    },
  }
}
