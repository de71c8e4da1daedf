import type { Event } from "./events.ts"
import type { State } from "./state.ts"

export const evolve = (state: State, event: Event): State => {
  switch (event._tag) {
    case "VamDepositReceived": {
      const { _tag, at, ...deposit } = event
      return deposit
    }
    case "VamDepositSettled":
      if (state.status === "ABSENT") throw new Error("VamDepositSettled on a deposit that was never received")
      return { ...state, status: event.status, transactionTime: event.transactionTime }
  }
}
