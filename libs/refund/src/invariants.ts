/**
 * invariants(state): the rules a refund order must always satisfy, as a list
 * of the broken ones. Run by the property tests after every step and by the
 * audit after every event. The rules that span the refund and its acquiring
 * order (refunds never exceed the paid amount, no account gives back more
 * than it received) are the acquiring order's `invariants`.
 */

import type { BrokenRule } from "@mizan/kernel"
import { detailsPartsFils } from "./allocation.ts"
import type { RefundDetails } from "./commands.ts"
import { isRefund, type State } from "./state.ts"

export type { BrokenRule }

export const rules = {
  transitions: "only the spec's status transitions happen",
  allocationSums: "the refund's parts sum to its amount",
  membersUnique: "each sharing member appears once in a refund",
} as const

/** The parts of a refund as a number: exact, since each is a Fils (at most 10^14) and there are few. */
const partsSumOf = (details: RefundDetails): number => {
  let total = details.payeeRefundFils + details.feeRefundedFils
  for (const member of details.sharingInfoList) total += member.sharingSettledAmountFils
  return total
}

/** Whether a sharing member appears twice. */
const hasDuplicateMembers = (details: RefundDetails): boolean =>
  details.sharingInfoList.length > 1 &&
  new Set(details.sharingInfoList.map((s) => s.sharingIdentitySeqId)).size !== details.sharingInfoList.length

/**
 * The audit runs this after every append of a replay, so the rules that hold
 * allocate nothing: the sum is checked as a number (a sum past 2^53 still
 * compares above any Fils) and worked out in bigint for the detail alone.
 */
export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  const broken: Array<BrokenRule> = []
  for (const detail of state.anomalies) broken.push({ rule: rules.transitions, detail })
  if (!isRefund(state)) return broken
  const { details } = state
  if (partsSumOf(details) !== details.amountFils)
    broken.push({ rule: rules.allocationSums, detail: `parts ${detailsPartsFils(details)} != ${details.amountFils}` })
  if (hasDuplicateMembers(details))
    broken.push({
      rule: rules.membersUnique,
      detail: details.sharingInfoList.map((s) => s.sharingIdentitySeqId).join(", "),
    })
  return broken
}
