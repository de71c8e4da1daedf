import { amountAboveZero, amountAboveZeroRule, type BrokenRule, feeFor, isForgotten } from "@mizan/kernel"
import { expiryMonthIndex, monthIndexAt } from "./expiry.ts"
import type { State } from "./state.ts"

export const rules = {
  amountPositive: amountAboveZeroRule,
  individualNames: "an INDIVIDUAL holder has a first and a last name and no companyName",
  corporateName: "a CORPORATE holder has a companyName and no personal names",
  cardLast4: "cardLast4 is 4 digits",
  feeFromPlan: "payerFeeAmount is the fee plan applied to the amount",
  cardValid: "the card had not expired when the order was created",
  refundAfterPayment: "refundedTime is not before paidTime",
} as const

/** The rules a bank card transfer must always keep. */
export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  if (state.status === "ABSENT") return []
  const broken: Array<BrokenRule> = [...amountAboveZero(state.amountFils)]
  if (state.accountHolderType === "INDIVIDUAL") {
    if (state.firstName === undefined || state.lastName === undefined)
      broken.push({ rule: rules.individualNames, detail: "a first or last name is missing" })
    if (state.companyName !== undefined) broken.push({ rule: rules.individualNames, detail: "it has a companyName" })
  } else if (state.companyName === undefined || state.firstName !== undefined || state.lastName !== undefined)
    broken.push({
      rule: rules.corporateName,
      detail: state.companyName === undefined ? "no companyName" : "it has personal names",
    })
  // A forgotten card holder's fields are gone (sealingPlan.ts): what they said can no longer be checked.
  if (!isForgotten(state.cardLast4) && !/^[0-9]{4}$/.test(state.cardLast4))
    broken.push({ rule: rules.cardLast4, detail: `"${state.cardLast4}"` })
  const fee = feeFor(state.feePlan, state.amountFils)
  if (state.payerFeeFils !== fee)
    broken.push({ rule: rules.feeFromPlan, detail: `${state.payerFeeFils} fils, the plan says ${fee} fils` })
  const expiryForgotten = isForgotten(state.expiryYear) || isForgotten(state.expiryMonth)
  const expiry = expiryForgotten ? undefined : expiryMonthIndex(state.expiryYear, state.expiryMonth)
  if (!expiryForgotten && (expiry === undefined || expiry < monthIndexAt(state.createdTime)))
    broken.push({ rule: rules.cardValid, detail: `expiry ${state.expiryMonth}/${state.expiryYear}` })
  if ((state.status === "FAILURE" || state.status === "BANK_FAIL") && state.refundedTime !== undefined)
    if (state.refundedTime < state.paidTime)
      broken.push({ rule: rules.refundAfterPayment, detail: `refunded ${state.refundedTime}, paid ${state.paidTime}` })
  return broken
}
