/** The deposit, with the wire names of `vamDepositOrder`. */
import type { VamDepositReceived } from "./events.ts"

export type VamDepositOrder = Omit<VamDepositReceived, "_tag" | "at">

export type State = { readonly status: "NONE" } | VamDepositOrder

export const initialState: State = { status: "NONE" }

export const isFinal = (status: State["status"]): status is "SUCCESS" | "FAILED" =>
  status === "SUCCESS" || status === "FAILED"
