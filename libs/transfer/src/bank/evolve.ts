import type { Event } from "./events.ts"
import type { State } from "./state.ts"

const notPlaced = (event: Event): never => {
  throw new Error(`${event._tag} on a bank transfer that was never placed`)
}

export const evolve = (state: State, event: Event): State => {
  switch (event._tag) {
    case "BankTransferPlaced": {
      const { _tag, ...placed } = event
      return { ...placed, status: "CREATED" }
    }
    case "BankTransferSucceeded":
      return state.status === "ABSENT"
        ? notPlaced(event)
        : { ...state, status: "SUCCESS", bankReference: event.bankReference, arrivalTime: event.arrivalTime }
    case "BankTransferFailed":
      return state.status === "ABSENT" ? notPlaced(event) : { ...state, status: "FAILURE", failDes: event.failDes }
  }
}
