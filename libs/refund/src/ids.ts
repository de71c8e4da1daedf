/**
 * The stream of a refund order. A merchant's refund number is unique per
 * merchant (docs/architecture.md#consistency), so a request's refund order lives under
 * the merchant and refundMerchantOrderNo. The refund a revoke starts has no
 * merchant number of its own: it lives under the revoked order's
 * merchantOrderNo in a namespace of its own, so it can never collide with a
 * merchant's refund number. The merchant id's length goes first, which makes
 * the id injective whatever characters the parts hold.
 */
import type { RefundCause } from "./commands.ts"

export const refundStreamId = (merchantId: string, refundMerchantOrderNo: string, cause: RefundCause = "REQUEST") =>
  `refund-${cause === "REVOKE" ? "revoke-" : ""}${merchantId.length}-${merchantId}-${refundMerchantOrderNo}`
