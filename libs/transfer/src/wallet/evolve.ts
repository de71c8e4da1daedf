import type { Event } from "./events.ts"
import type { State } from "./state.ts"

/** A status change before the placement means a damaged history: a defect, not a state. */
const notPlaced = (event: Event): never => {
  throw new Error(`${event._tag} on a wallet transfer that was never placed`)
}

export const evolve = (state: State, event: Event): State => {
  switch (event._tag) {
    case "WalletTransferPlaced": {
      const { _tag, ...placed } = event
      return { ...placed, status: "CREATED" }
    }
    case "WalletTransferSucceeded":
      return state.status === "ABSENT" ? notPlaced(event) : { ...state, status: "SUCCESS" }
    case "WalletTransferFailed":
      return state.status === "ABSENT"
        ? notPlaced(event)
        : { ...state, status: "FAILURE", failCode: event.failCode, failDes: event.failDes }
  }
}
