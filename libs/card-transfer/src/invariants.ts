import { feeFor, isForgotten } from "@mizan/kernel"
import { expiryMonthIndex, monthIndexAt } from "./expiry.ts"
import type { State } from "./state.ts"

/** The rules a bank card transfer must always keep. */
export const invariants = (state: State): ReadonlyArray<string> => {
  if (state.status === "NONE") return []
  const problems: Array<string> = []
  if (state.amount <= 0) problems.push("amount is not above zero")
  if (state.accountHolderType === "INDIVIDUAL") {
    if (state.firstName === undefined || state.lastName === undefined)
      problems.push("an INDIVIDUAL holder lacks a first or last name")
    if (state.companyName !== undefined) problems.push("an INDIVIDUAL holder has a companyName")
  } else if (state.companyName === undefined || state.firstName !== undefined || state.lastName !== undefined)
    problems.push("a CORPORATE holder lacks a companyName or has personal names")
  // A forgotten card holder's fields are gone (sealingPlan.ts): what they said can no longer be checked.
  if (!isForgotten(state.cardLast4) && !/^[0-9]{4}$/.test(state.cardLast4)) problems.push("cardLast4 is not 4 digits")
  if (state.payerFeeAmount !== feeFor(state.feePlan, state.amount))
    problems.push("payerFeeAmount is not the fee plan applied to the amount")
  const expiryForgotten = isForgotten(state.expiryYear) || isForgotten(state.expiryMonth)
  const expiry = expiryForgotten ? undefined : expiryMonthIndex(state.expiryYear, state.expiryMonth)
  if (!expiryForgotten && (expiry === undefined || expiry < monthIndexAt(state.createdTime)))
    problems.push("the card had expired when the order was created")
  if ((state.status === "FAILURE" || state.status === "BANK_FAIL") && state.refundedTime !== undefined)
    if (state.refundedTime < state.paidTime) problems.push("refundedTime is before paidTime")
  return problems
}
