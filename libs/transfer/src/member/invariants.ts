import type { BrokenRule } from "@mizan/kernel"
import { sumFils } from "@mizan/kernel"
import type { State } from "./state.ts"

export const rules = {
  balanceAddsUp: "the balance is the opening balance plus every credit, each booked once",
} as const

/** The balance is the opening balance plus every credit, each booked once. */
export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  if (state.status === "ABSENT") return []
  const credited = sumFils(state.credits.values())
  return state.balanceFils === state.openingBalanceFils + credited
    ? []
    : [
        {
          rule: rules.balanceAddsUp,
          detail: `balance ${state.balanceFils} fils, opening ${state.openingBalanceFils} + credits ${credited} fils`,
        },
      ]
}
