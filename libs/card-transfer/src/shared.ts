/**
 * Order keys of the bank card transfer.
 */
import { BoundedString, RequiredString } from "@mizan/kernel"

export const MerchantId = RequiredString(12)
export const MerchantOrderNo = RequiredString(64)
export const OrderNo = RequiredString(32)
export const NotifyUrl = BoundedString(200)
