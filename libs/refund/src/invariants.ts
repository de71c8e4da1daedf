/**
 * invariants(state): the rules a refund order must always satisfy, as a list
 * of the broken ones. Run by the property tests after every step and by the
 * audit after every event. The rules that span the refund and its acquiring
 * order (refunds never exceed the paid amount, no account gives back more
 * than it received) are the acquiring order's `invariants`.
 */
import { detailsPartsFils } from "./allocation.ts"
import { isRefund, type State } from "./state.ts"

export interface BrokenRule {
  readonly rule: string
  readonly detail: string
}

export const rules = {
  transitions: "only the spec's status transitions happen",
  allocationSums: "the refund's parts sum to its amount",
  membersUnique: "each sharing member appears once in a refund",
} as const

export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  const broken: Array<BrokenRule> = state.anomalies.map((detail) => ({ rule: rules.transitions, detail }))
  if (!isRefund(state)) return broken
  const { details } = state
  if (detailsPartsFils(details) !== BigInt(details.amountFils))
    broken.push({ rule: rules.allocationSums, detail: `parts ${detailsPartsFils(details)} != ${details.amountFils}` })
  const members = details.sharingInfoList.map((s) => s.sharingIdentitySeqId)
  if (new Set(members).size !== members.length) broken.push({ rule: rules.membersUnique, detail: members.join(", ") })
  return broken
}
