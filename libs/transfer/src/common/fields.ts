/**
 * Field schemas shared by the transfer orders, with the spec's lengths
 * (docs/api.md#operations gives each field's form).
 */
import { RequiredString } from "@mizan/kernel"

export { MerchantId, MerchantOrderNo, NotifyUrl, OrderNo } from "@mizan/kernel"
/** The internal classification name of an order: String(100) in the wallet transfer order. */
export const Product = RequiredString(100)
