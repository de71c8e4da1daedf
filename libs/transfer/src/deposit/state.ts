/** The deposit, with the wire names of `vamDepositOrder`. */
import type { VamDepositReceived } from "./events.ts"

export type VamDepositOrder = Omit<VamDepositReceived, "_tag" | "at">

export type State = { readonly status: "ABSENT" } | VamDepositOrder

export const initialState: State = { status: "ABSENT" }

export const isFinal = (status: State["status"]): status is "SUCCESS" | "FAILED" =>
  status === "SUCCESS" || status === "FAILED"
