import type { State } from "./state.ts"

export const invariants = (state: State): ReadonlyArray<string> =>
  state.status !== "ABSENT" && state.amount <= 0 ? ["amount is not above zero"] : []
