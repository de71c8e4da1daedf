/**
 * Notifications the service POSTs to a merchant's notifyUrl
 * (docs/api.md#notifications): `notify_id`, `notify_timestamp`, the deprecated `notify_time`
 * (yyyyMMddHHmmss) and `_input_charset`, and one order object under its key.
 * The body is signed like a response, in the `sign` header.
 */
import { formatCompactUtc, issueMessage, Timestamp } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { stringifyJson } from "./json.ts"
import { encodeWire } from "./operations.ts"
import { AcquireOrder } from "./wire/acquiring.ts"
import { TransferBankCardOrder } from "./wire/card-transfer.ts"
import { TransferToBankOrder } from "./wire/payout.ts"
import { RefundOrder } from "./wire/refund.ts"
import { VamDepositOrder } from "./wire/vam-deposit.ts"
import { TransferOrder } from "./wire/wallet-transfer.ts"

/** The order key of each notification and the order's shape. */
export const notificationOrders = {
  acquireOrder: AcquireOrder,
  refundOrder: RefundOrder,
  transferOrder: TransferOrder,
  transferToBankOrder: TransferToBankOrder,
  transferBankCardOrder: TransferBankCardOrder,
  vamDepositOrder: VamDepositOrder,
} as const

export type NotificationOrders = typeof notificationOrders
export type NotificationOrderKey = keyof NotificationOrders
export const notificationOrderKeys = Object.keys(notificationOrders) as ReadonlyArray<NotificationOrderKey>

/** `_input_charset`: always UTF-8. */
export const notificationCharset = "UTF-8"

const notificationFields = {
  notify_id: Schema.String.check(Schema.isMinLength(1, { message: "must not be empty" })),
  notify_timestamp: Timestamp,
  notify_time: Schema.optionalKey(Schema.String),
  _input_charset: Schema.optionalKey(Schema.String),
}

/** The body schema of one kind of notification. */
export const notificationBodyOf = <K extends NotificationOrderKey>(key: K) =>
  Schema.Struct({ ...notificationFields, [key]: notificationOrders[key] } as typeof notificationFields & {
    readonly [P in K]: NotificationOrders[K]
  })

/** A notification as a merchant handles it: which order changed, and the order. */
export type Notification = {
  readonly [K in NotificationOrderKey]: {
    readonly notifyId: string
    readonly notifyTimestamp: Timestamp
    readonly orderKey: K
    readonly order: NotificationOrders[K]["Type"]
  }
}[NotificationOrderKey]

/** What a notification says: which order, under which key, in its wire form (as the query operation answers it). */
export interface NotificationContent {
  readonly notifyId: string
  readonly orderKey: NotificationOrderKey
  /** The order's wire JSON: see `encodeNotificationOrder`. */
  readonly order: unknown
}

/**
 * The order of a notification in its wire form, from the form the service
 * holds it in (amounts in fils). Throws `WireEncodingError` when the order
 * breaks its schema.
 */
export const encodeNotificationOrder = <K extends NotificationOrderKey>(
  orderKey: K,
  order: NotificationOrders[K]["Type"],
): unknown => encodeWire(notificationOrders[orderKey] as Schema.Codec<unknown, unknown>, order, orderKey)

/**
 * The raw notification body, ready to sign and send: `notify_id`,
 * `notify_timestamp` in ms, the deprecated `notify_time` and
 * `_input_charset`, then the order under its key. Made anew for every
 * attempt, since the time is the time of sending; signed as these exact bytes.
 */
export const notificationBody = (content: NotificationContent, sentAt: Timestamp): string =>
  stringifyJson({
    notify_id: content.notifyId,
    notify_timestamp: sentAt,
    notify_time: formatCompactUtc(sentAt),
    _input_charset: notificationCharset,
    [content.orderKey]: content.order,
  })

/** A notification body that is not one of the six kinds; `message` names the field. */
export class InvalidNotification extends Schema.TaggedError<InvalidNotification>()("InvalidNotification", {
  message: Schema.String,
}) {}

/**
 * Decodes a parsed notification body (see `parseJson`). The order key says
 * the kind; a body with none of the six keys, or with several, is refused.
 */
export const decodeNotification = (body: unknown): Result.Result<Notification, InvalidNotification> => {
  const keys =
    typeof body === "object" && body !== null ? notificationOrderKeys.filter((key) => Object.hasOwn(body, key)) : []
  const orderKey = keys[0]
  if (orderKey === undefined || keys.length > 1)
    return Result.fail(
      new InvalidNotification({
        message: `notification must carry exactly one of ${notificationOrderKeys.join(", ")}`,
      }),
    )
  const decoded = Schema.decodeUnknownResult(notificationBodyOf(orderKey), { errors: "all" })(body)
  if (Result.isFailure(decoded))
    return Result.fail(new InvalidNotification({ message: issueMessage(decoded.failure.issue) }))
  const fields = decoded.success as Record<string, unknown> & { notify_id: string; notify_timestamp: Timestamp }
  return Result.succeed({
    notifyId: fields.notify_id,
    notifyTimestamp: fields.notify_timestamp,
    orderKey,
    order: fields[orderKey],
  } as Notification)
}

const acknowledgementWord = "success"

/**
 * Whether a merchant's reply acknowledges a notification: a 2xx status and a
 * body that is `{"response":"SUCCESS"}` or the plain text `SUCCESS`, in any
 * letter case, as the official SDKs reply. Anything else is a failed attempt that
 * the retry schedule repeats.
 */
export const isAcknowledgement = (status: number, bodyText: string): boolean => {
  if (status < 200 || status > 299) return false
  const text = bodyText.trim()
  if (text.toLowerCase() === acknowledgementWord) return true
  let reply: unknown
  try {
    reply = JSON.parse(text)
  } catch {
    return false
  }
  if (typeof reply !== "object" || reply === null || Array.isArray(reply)) return false
  const response = (reply as { readonly response?: unknown }).response
  return typeof response === "string" && response.toLowerCase() === acknowledgementWord
}
