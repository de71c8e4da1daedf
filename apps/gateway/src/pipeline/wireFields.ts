/**
 * The domain's field names as the merchant sent them. A domain lib's
 * refusal names the fields of its command's request (`amountFils`,
 * `sharingParamList[0].sharingAmountFils`) and carries the one it is about
 * as `field`; the merchant reads them by their place in the body
 * (`bizContent.amount`). Each operation has one table of the names its
 * request renames on the way in (the protocol's `withDomainNames`), and the
 * pipeline writes every refusal through `wireDetail` with its operation's
 * table, at the one place a refusal becomes a wire answer.
 */
import type { Rejection } from "@mizan/kernel"
import type { DecodedRequestOf, OperationPath } from "@mizan/protocol"

/** The domain's name of a field to the wire's, for each name a request renames; any other is the same on both. */
export type FieldNames = Readonly<Record<string, string>>

/** An operation's table, or, where the wire name depends on what the merchant sent, the table for its request. */
type FieldNamesOf<P extends OperationPath> = FieldNames | ((request: DecodedRequestOf<P>) => FieldNames)

const sameNames: FieldNames = {}
/** The amount of a transfer or refund: `amount` on the wire, in fils in the domain. */
const amount: FieldNames = { amountFils: "amount" }
/** A split payment's items: `sharingAmount` on the wire. */
const sharing: FieldNames = { sharingAmountFils: "sharingAmount" }

/** Create order's amounts: the total, each split item's, and accessoryContent's. */
const createOrder: FieldNames = {
  totalAmountFils: "totalAmount",
  ...sharing,
  discountableAmountFils: "discountableAmount",
  ...amount,
  vatAmountFils: "vatAmount",
  tipAmountFils: "tipAmount",
  priceFils: "price",
}

/**
 * A refund names the order it refunds as `originMerchantOrderNo` or
 * `originOrderNo`, where the order's lookup and decider, shared with get
 * order, say `merchantOrderNo` and `orderNo`; its own number came as
 * `refundMerchantOrderNo` or, as the spec's sample sends it,
 * `merchantOrderNo`, which the domain knows by the first name only.
 */
const refundPlacement = (request: DecodedRequestOf<"/acquire2/refund/placeOrder">): FieldNames => ({
  merchantOrderNo: "originMerchantOrderNo",
  orderNo: "originOrderNo",
  refundMerchantOrderNo: request.refundMerchantOrderNoSentAs,
  ...amount,
  ...sharing,
})

/** Every operation of the merchant API: a new one takes its table here, or the compiler says so. */
const merchantOperations: { readonly [P in OperationPath]: FieldNamesOf<P> } = {
  "/acquire2/placeOrder": createOrder,
  "/acquire2/getOrder": sameNames,
  "/acquire2/getOrderPayer": sameNames,
  "/acquire2/refund/placeOrder": refundPlacement,
  "/acquire2/refund/getOrder": sameNames,
  "/acquire2/revokeOrder": sameNames,
  "/acquire2/cancelOrder": sameNames,
  "/transfer/placeTransferOrder": amount,
  "/transfer/getTransferOrder": sameNames,
  "/transfer/getFundoutAbilityList": sameNames,
  "/transfer/calculateFundout": sameNames,
  "/transfer/getIbanHolderName": sameNames,
  "/transfer/placeTransferToBankOrder": amount,
  "/transfer/getTransferToBankOrder": sameNames,
  "/transfer/placeTransferToBankCard": amount,
  "/transfer/getTransferToBankCard": sameNames,
}

/**
 * The sandbox's helpers that rename: pay order's `paidAmount` (its refusal
 * compares it with the order's `totalAmount`). The others send the domain's
 * names.
 */
const sandboxOperations: Readonly<Record<string, FieldNames>> = {
  "/payOrder": { paidAmountFils: "paidAmount", totalAmountFils: "totalAmount" },
}

/** The table of the operation at `path` (an alias already resolved), for the request it decoded. */
export const fieldNamesOf = (path: string, request: unknown): FieldNames => {
  const table: FieldNames | ((request: never) => FieldNames) | undefined = Object.hasOwn(merchantOperations, path)
    ? merchantOperations[path as OperationPath]
    : sandboxOperations[path]
  // A function's table is its own operation's, and the pipeline hands it that operation's decoded request.
  return typeof table === "function" ? table(request as never) : (table ?? sameNames)
}

/** A field path as the domain writes it: names, each with an optional index, joined by dots. */
const fieldPath = /[A-Za-z_$][\w$]*(?:\[\d+\])?(?:\.[A-Za-z_$][\w$]*(?:\[\d+\])?)*/g

/** A path with each of its names as the wire spells it: `sharingParamList[0].sharingAmountFils` → `...sharingAmount`. */
const wirePath = (path: string, names: FieldNames): string =>
  path
    .split(".")
    .map((segment) =>
      segment.replace(/^[^[]+/, (name) => (Object.hasOwn(names, name) ? (names[name] as string) : name)),
    )
    .join(".")

/**
 * A refusal's sentence in the wire's words: the field it is about by its
 * path in the body (`bizContent.amount`), and any other field it names by
 * the wire's name ("more than totalAmount"), as the merchant's developer
 * writes them. A refusal without a field is said as it is: the gateway's
 * own refusals already name the wire's fields, and a domain refusal without
 * one is about the order's state, not a field of the request.
 */
export const wireDetail = (rejection: Rejection, names: FieldNames): string => {
  const { field, detail } = rejection
  if (field === undefined) return detail
  return detail.replace(fieldPath, (path) =>
    path === field ? `bizContent.${wirePath(path, names)}` : wirePath(path, names),
  )
}
