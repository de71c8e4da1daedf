import type { State } from "./state.ts"

export const invariants = (state: State): ReadonlyArray<string> =>
  state.status !== "NONE" && state.amount <= 0 ? ["amount is not above zero"] : []
