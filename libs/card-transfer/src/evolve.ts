import type { Event } from "./events.ts"
import type { State } from "./state.ts"

const outOfOrder = (event: Event, state: State): never => {
  throw new Error(`${event._tag} on a bank card transfer in status ${state.status}`)
}

export const evolve = (state: State, event: Event): State => {
  switch (event._tag) {
    case "BankCardTransferPlaced": {
      const { _tag, ...placed } = event
      return { ...placed, status: "CREATED" }
    }
    case "BankCardTransferSucceeded":
      return state.status === "ABSENT"
        ? outOfOrder(event, state)
        : { ...state, status: "SUCCESS", bankReference: event.bankReference }
    case "BankCardTransferDeclined":
      return state.status === "ABSENT"
        ? outOfOrder(event, state)
        : { ...state, status: "BANK_FAIL", failDes: event.failDes }
    case "BankCardTransferFailed":
      return state.status === "ABSENT"
        ? outOfOrder(event, state)
        : { ...state, status: "FAILURE", failDes: event.failDes }
    case "BankCardTransferRefunded":
      return state.status === "FAILURE" || state.status === "BANK_FAIL"
        ? { ...state, refundedTime: event.refundedTime }
        : outOfOrder(event, state)
  }
}
