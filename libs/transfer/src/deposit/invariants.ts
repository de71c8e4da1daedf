import type { BrokenRule } from "@mizan/kernel"
import type { State } from "./state.ts"

export const rules = { amountPositive: "the amount is above zero" } as const

export const invariants = (state: State): ReadonlyArray<BrokenRule> =>
  state.status !== "ABSENT" && state.amount <= 0
    ? [{ rule: rules.amountPositive, detail: `amount ${state.amount} fils` }]
    : []
