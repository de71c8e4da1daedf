/**
 * The codes an operation can answer in `head.code`, for the description:
 * the catalogue (libs/kernel's codes.ts) as the enum of `head.code`, and per
 * operation the codes its rules decide.
 *
 * Which rule answers which code lives in the deciders, flows and handlers
 * an operation runs (searchable by the code's name, CONTRIBUTING.md), not in
 * a form this description can read, so it is written down here. The OpenAPI
 * test keeps it honest both ways: every code name the sources decide is
 * listed for some operation, every listed one is decided somewhere, and real
 * refusals recorded against a running gateway carry codes listed for their
 * operation.
 */
import { type CodeEntry, type CodeName, codeCatalogue } from "@mizan/kernel"
import type { OperationPath } from "@mizan/protocol"

/** What the pipeline can answer on every operation, before or around its handler. */
export const commonCodes: ReadonlyArray<CodeName> = [
  "SUCCESS",
  "INVALID_PARAMETER",
  "REQUESTTIME_TOO_EARLY",
  "REQUESTTIME_TOO_LATER",
  "RATE_LIMIT_REJECT",
  "UNAUTHORIZED",
  "SYSTEM_ERROR",
]

/** What a path that names no operation answers: listed in head.code's values, on no operation. */
export const unroutedCodes: ReadonlyArray<CodeName> = ["SERVICE_NOT_AVAILABLE"]

const orderNotFound: ReadonlyArray<CodeName> = ["MERCHANT_ORDER_NO_NOT_EXIST", "ORDER_NO_NOT_EXIST"]

/** The codes each operation's own rules answer, beside the common ones. */
export const operationCodes: Readonly<Record<OperationPath, ReadonlyArray<CodeName>>> = {
  "/acquire2/placeOrder": [
    "MERCHANT_ORDER_NO_EXIST",
    "ORDER_PAID",
    "ORDER_SETTLED",
    "ORDER_FAILURE",
    "PAYSCENECODE_ILLEGAL",
    "EXPIREDTIME_LESS_THAN_REQUESTTIME",
    "EXPIREDTIME_TOO_LATER",
  ],
  "/acquire2/getOrder": orderNotFound,
  "/acquire2/getOrderPayer": [...orderNotFound, "ORDER_NOT_PAID"],
  "/acquire2/refund/placeOrder": [
    ...orderNotFound,
    "REFUND_MERCHANT_ORDER_NO_EXIST",
    "ACQUIRE_ORDER_REVOKED",
    "ORDER_NOT_PAID",
    "ORDER_FAILURE",
    "INVALID_SECONDARY_MERCHANT",
    "REFUND_REJECTED",
    "REFUND_AMOUNT_EXCEEDED",
    "SHARING_MEMBER_NOT_EXIST",
    "REFUND_SHARING_MEMBER_MISMATCH",
    "MERCHANT_DEVICE_NOT_EXIST",
  ],
  "/acquire2/refund/getOrder": orderNotFound,
  "/acquire2/revokeOrder": [...orderNotFound, "ACQUIRE_ORDER_REFUNDED", "REVOKE_REJECTED", "REVOKE_FAILURE"],
  "/acquire2/cancelOrder": [...orderNotFound, "ORDER_PAID", "ORDER_SETTLED", "ORDER_NOT_PAID", "ORDER_FAILURE"],
  "/transfer/placeTransferOrder": ["MERCHANT_ORDER_NO_EXIST", "ORDER_SUCCESS", "ORDER_FAILURE", "SERVICE_TIMEOUT"],
  "/transfer/getTransferOrder": ["MERCHANT_ORDER_NO_NOT_EXIST"],
  "/transfer/getFundoutAbilityList": [],
  "/transfer/calculateFundout": ["FUND_OUT_ABILITY_SUPPORTED"],
  "/transfer/getIbanHolderName": ["WRONG_IBAN_FORMAT", "NAME_NOT_FOUND", "QUERY_API_UNAVAILABLE"],
  "/transfer/placeTransferToBankOrder": [
    "MERCHANT_ORDER_NO_EXIST",
    "WRONG_IBAN_FORMAT",
    "FUND_OUT_ABILITY_SUPPORTED",
    "ORDER_SUCCESS",
    "ORDER_FAILURE",
  ],
  "/transfer/getTransferToBankOrder": ["MERCHANT_ORDER_NO_NOT_EXIST"],
  "/transfer/placeTransferToBankCard": [
    "MERCHANT_ORDER_NO_EXIST",
    "PRODUCT_IS_NOT_APPLIED",
    "ORDER_CREATED",
    "ORDER_SUCCESS",
    "ORDER_FAILURE",
  ],
  "/transfer/getTransferToBankCard": ["MERCHANT_ORDER_NO_NOT_EXIST"],
}

/** What the sandbox helpers answer beyond the common codes: a payment's rules, and the order not being there. */
export const sandboxCodes: ReadonlyArray<CodeName> = [
  ...orderNotFound,
  "ORDER_PAID",
  "ORDER_SETTLED",
  "ORDER_FAILURE",
  "ORDER_NOT_PAID",
  "ORDER_SUCCESS",
  "ORDER_CREATED",
  "RISK_FAIL",
]

const line = (entry: CodeEntry): string =>
  `- \`${entry.code}\` ${entry.message}: ${entry.meaning}${"workaround" in entry && entry.workaround !== undefined ? ` (${entry.workaround})` : ""}`

/** The codes' lines for a description, in the catalogue's order. */
export const codeLines = (names: ReadonlyArray<CodeName>): string => {
  const wanted = new Set(names)
  return Object.entries(codeCatalogue)
    .filter(([name]) => wanted.has(name as CodeName))
    .map(([, entry]) => line(entry))
    .join("\n")
}

/** The distinct wire codes of some names ("400" once for its three messages), in the catalogue's order. */
export const wireCodesOf = (names: ReadonlyArray<CodeName>): ReadonlyArray<string> => {
  const wanted = new Set(names)
  return [
    ...new Set(
      Object.entries(codeCatalogue)
        .filter(([name]) => wanted.has(name as CodeName))
        .map(([, entry]) => entry.code),
    ),
  ]
}

/** `head.code` as the catalogue's closed set, each value described. */
export const headCodeSchema = () => ({
  type: "string",
  enum: wireCodesOf(Object.keys(codeCatalogue) as ReadonlyArray<CodeName>),
  description: `The outcome's code: "0" for success, otherwise one of the catalogue. One number may carry several message names (400 is INVALID_PARAMETER, REQUESTTIME_TOO_EARLY and REQUESTTIME_TOO_LATER): switch on the name, the text of msg before the first \`:\`.\n\n${codeLines(Object.keys(codeCatalogue) as ReadonlyArray<CodeName>)}`,
})
