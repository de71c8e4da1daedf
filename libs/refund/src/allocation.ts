import { sumFilsBig } from "@mizan/kernel"
import type { RefundDetails } from "./commands.ts"

/**
 * What a refund's parts add up to: the payee's part, the fee refunded and
 * every sharing member's part. A refund order records the allocation its
 * acquiring order decided (see the README); this is how it checks the parts
 * sum to the amount. Taken in bigint so a damaged history is reported, not thrown on.
 */
export const detailsPartsFils = (details: RefundDetails): bigint =>
  sumFilsBig([
    details.payeeRefundFils,
    details.feeRefundedFils,
    ...details.sharingInfoList.map((s) => s.sharingSettledAmountFils),
  ])
