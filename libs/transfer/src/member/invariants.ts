import { sumFils } from "@mizan/kernel"
import type { State } from "./state.ts"

/** The balance is the opening balance plus every credit, each booked once. */
export const invariants = (state: State): ReadonlyArray<string> => {
  if (state.status === "ABSENT") return []
  return state.balanceFils === state.openingBalanceFils + sumFils(state.credits.values())
    ? []
    : ["the balance is not the opening balance plus the credits"]
}
