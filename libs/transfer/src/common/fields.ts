/**
 * Field schemas shared by the transfer orders, with the spec's lengths
 * (docs/api.md#operations gives each field's form).
 */
import { BoundedString, RequiredString } from "@mizan/kernel"

/** `Partner-Id`: the merchant's id, at most 12 characters. */
export const MerchantId = RequiredString(12)
/** The merchant's reference of an order: String(64). */
export const MerchantOrderNo = RequiredString(64)
/** The service's order number, generated at the edge: String(32) as in the bank card and deposit orders. */
export const OrderNo = RequiredString(32)
export const NotifyUrl = BoundedString(200)
/** The internal classification name of an order: String(100) in the wallet transfer order. */
export const Product = RequiredString(100)
