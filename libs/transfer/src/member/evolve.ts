import type { Event } from "./events.ts"
import type { State } from "./state.ts"

export const evolve = (state: State, event: Event): State => {
  switch (event._tag) {
    case "MemberAccountOpened": {
      const { _tag, at, ...member } = event
      return { ...member, status: "OPEN", balanceFils: member.openingBalanceFils, credits: new Map() }
    }
    case "MemberAccountCredited":
      if (state.status === "ABSENT") throw new Error("MemberAccountCredited on an account that was never opened")
      return {
        ...state,
        balanceFils: event.balanceAfterFils,
        credits: new Map([...state.credits, [event.reference, event.amount]]),
      }
  }
}
