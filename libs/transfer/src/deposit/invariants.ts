import { amountAboveZero, amountAboveZeroRule, type BrokenRule } from "@mizan/kernel"
import type { State } from "./state.ts"

export const rules = { amountPositive: amountAboveZeroRule } as const

export const invariants = (state: State): ReadonlyArray<BrokenRule> =>
  state.status === "ABSENT" ? [] : amountAboveZero(state.amountFils)
