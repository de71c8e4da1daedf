/**
 * What the acquiring order and the refund order say alike of a refund: the
 * refund order records what the acquiring order reserved (@mizan/acquiring
 * `refundDetails` passes on the reservation's cause, the split items' serial
 * numbers and the request's notes as they came), so the two name them once.
 */
import { Schema } from "effect"
import { NotifyUrl } from "./ids.ts"
import { BoundedString } from "./strings.ts"

/** A serial number of a split payment item: 1, 2, 3 and so on; a refund names the items it takes back by it. */
export const SharingIdentitySeqId = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: "must be 1 or more" }))

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
