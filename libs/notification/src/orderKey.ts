import { Schema } from "effect"

/**
 * The key under which a notification carries its order object
 * (docs/api.md#notifications): one per kind of order the service
 * announces.
 */
export const OrderKey = Schema.Literals([
  "acquireOrder",
  "refundOrder",
  "transferOrder",
  "transferToBankOrder",
  "transferBankCardOrder",
  "vamDepositOrder",
])
export type OrderKey = typeof OrderKey.Type
