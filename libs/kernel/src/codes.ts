/**
 * The spec's code catalogue (docs/api.md#errors lists it), as
 * data shared by the domain (which decides a code) and the gateway (which
 * writes it into `head`). Keyed by the spec's message, since one number can
 * carry several messages (400 is both INVALID_PARAMETER and
 * REQUESTTIME_TOO_EARLY) and one message can serve several operations.
 */

export interface CodeEntry {
  /** What goes into `head.code`. */
  readonly code: string
  /** What goes into `head.msg` when nothing more specific is said. */
  readonly message: string
  /** The cause, per operation where the spec gives one per operation. */
  readonly meaning: string
  readonly workaround?: string
}

const entry = (code: string, message: string, meaning: string, workaround?: string): CodeEntry =>
  workaround === undefined ? { code, message, meaning } : { code, message, meaning, workaround }

export const codeCatalogue = {
  // Codes common to all operations.
  SUCCESS: entry("0", "SUCCESS", "Success"),
  INVALID_PARAMETER: entry("400", "INVALID_PARAMETER", "Parameter error", "Adjust parameters"),
  REQUESTTIME_TOO_EARLY: entry(
    "400",
    "REQUESTTIME_TOO_EARLY",
    "requestTime too far in the past",
    "Adjust request time",
  ),
  REQUESTTIME_TOO_LATER: entry(
    "400",
    "REQUESTTIME_TOO_LATER",
    "requestTime too far in the future",
    "Adjust request time",
  ),
  RATE_LIMIT_REJECT: entry("402", "RATE_LIMIT_REJECT", "Requests too frequent", "Reduce frequency"),
  UNAUTHORIZED: entry("403", "UNAUTHORIZED", "API not authorised", "Contact the service operator"),
  SERVICE_NOT_AVAILABLE: entry(
    "404",
    "SERVICE_NOT_AVAILABLE",
    "API service not available",
    "Contact the service operator",
  ),
  SYSTEM_ERROR: entry("500", "SYSTEM_ERROR", "System error", "Retry later"),
  SERVICE_TIMEOUT: entry("504", "SERVICE_TIMEOUT", "Service timeout", "Retry later"),
  RISK_FAIL: entry("601", "RISK_FAIL", "Risk control validation failed", "Adjust business parameters"),
  // Codes per operation.
  ORDER_PAID: entry("62001", "ORDER_PAID", "Order already paid successfully, cancellation not supported"),
  ORDER_FAILURE: entry("62002", "ORDER_FAILURE", "The order (or the order refunded) is a failed order"),
  ORDER_SETTLED: entry("62003", "ORDER_SETTLED", "Creating an order whose merchant order number is already settled"),
  MERCHANT_ORDER_NO_NOT_EXIST: entry(
    "62004",
    "MERCHANT_ORDER_NO_NOT_EXIST",
    "Order with the merchant order number does not exist",
  ),
  REFUND_AMOUNT_EXCEEDED: entry(
    "62006",
    "REFUND_AMOUNT_EXCEEDED",
    "Amount exceeds refundable amount (original minus refunded minus pending refunds)",
  ),
  EXPIREDTIME_LESS_THAN_REQUESTTIME: entry(
    "62008",
    "EXPIREDTIME_LESS_THAN_REQUESTTIME",
    "Expiry time is less than request time",
  ),
  EXPIREDTIME_TOO_LATER: entry("62009", "EXPIREDTIME_TOO_LATER", "Expiry time exceeds request time by 48 hours"),
  PAYSCENECODE_ILLEGAL: entry("62012", "PAYSCENECODE_ILLEGAL", "Payment scene code is illegal"),
  ORDER_NOT_PAID: entry("62015", "ORDER_NOT_PAID", "Refund attempted on an unpaid order"),
  MERCHANT_ORDER_NO_EXIST: entry(
    "62016",
    "MERCHANT_ORDER_NO_EXIST",
    "Duplicate order number with different parameters",
  ),
  REFUND_MERCHANT_ORDER_NO_EXIST: entry(
    "62017",
    "REFUND_MERCHANT_ORDER_NO_EXIST",
    "Same refund order number with different business parameters",
  ),
  PRODUCT_IS_NOT_APPLIED: entry("62026", "PRODUCT_IS_NOT_APPLIED", "Product not activated"),
  ORDER_SUCCESS: entry("62028", "ORDER_SUCCESS", "Order already successful"),
  ORDER_CREATED: entry("62029", "ORDER_CREATED", "Order already created"),
  ORDER_NO_NOT_EXIST: entry("62035", "ORDER_NO_NOT_EXIST", "Order with the service's order number does not exist"),
  MERCHANT_DEVICE_NOT_EXIST: entry("62036", "MERCHANT_DEVICE_NOT_EXIST", "Merchant device does not exist"),
  INVALID_SECONDARY_MERCHANT: entry(
    "62038",
    "INVALID_SECONDARY_MERCHANT",
    "Refund sub-merchant differs from the original acquiring merchant",
  ),
  REVOKE_FAILURE: entry("62039", "REVOKE_FAILURE", "Internal error"),
  ACQUIRE_ORDER_REVOKED: entry("62040", "ACQUIRE_ORDER_REVOKED", "Order has been reversed"),
  ACQUIRE_ORDER_REFUNDED: entry("62041", "ACQUIRE_ORDER_REFUNDED", "Acquiring order has already been refunded"),
  REFUND_REJECTED: entry("62045", "REFUND_REJECTED", "Refund was rejected"),
  REVOKE_REJECTED: entry("62046", "REVOKE_REJECTED", "Revocation was rejected"),
  FUND_OUT_ABILITY_SUPPORTED: entry(
    "62076",
    "FUND_OUT_ABILITY_SUPPORTED",
    "networkCode or fundoutCurrencyCode not enabled or supported",
  ),
  SHARING_MEMBER_NOT_EXIST: entry("62083", "SHARING_MEMBER_NOT_EXIST", "Split payment member does not exist"),
  REFUND_SHARING_MEMBER_MISMATCH: entry(
    "62084",
    "REFUND_SHARING_MEMBER_MISMATCH",
    "Refund split member does not match",
  ),
  WRONG_IBAN_FORMAT: entry("62101", "WRONG_IBAN_FORMAT", "Incorrect IBAN format"),
  NAME_NOT_FOUND: entry("62102", "NAME_NOT_FOUND", "Name not found for the IBAN"),
  QUERY_API_UNAVAILABLE: entry("62103", "QUERY_API_UNAVAILABLE", "Query interface unavailable"),
} as const satisfies Record<string, CodeEntry>

export type CodeName = keyof typeof codeCatalogue

export const codeNames = Object.keys(codeCatalogue) as ReadonlyArray<CodeName>

/** The wire code of a catalogue entry: `codeOf("REFUND_AMOUNT_EXCEEDED")` is "62006". */
export const codeOf = (name: CodeName): string => codeCatalogue[name].code
