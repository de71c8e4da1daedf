/**
 * What the acquiring order and the refund order say alike of a refund: the
 * refund order records what the acquiring order reserved (@mizan/acquiring
 * `refundDetails` passes the reservation's cause and the request's notes on
 * as they came), so the two name them once here.
 */
import { Schema } from "effect"
import { NotifyUrl } from "./ids.ts"
import { BoundedString } from "./strings.ts"

/** Whether the merchant asked for the refund, or a revoke started it. */
export const RefundCause = Schema.Literals(["REQUEST", "REVOKE"])
export type RefundCause = typeof RefundCause.Type

/**
 * The optional notes of a refund request (spec: Refund order, request),
 * kept as they came by the reservation and by the refund order's details:
 * a schema of either spreads these fields.
 */
export const refundNoteFields = {
  notifyUrl: Schema.optionalKey(NotifyUrl),
  operatorName: Schema.optionalKey(BoundedString(200)),
  reason: Schema.optionalKey(BoundedString(64)),
  deviceId: Schema.optionalKey(BoundedString(200)),
  secondaryMerchantId: Schema.optionalKey(BoundedString(200)),
  reserved: Schema.optionalKey(BoundedString(200)),
}
