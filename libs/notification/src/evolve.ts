import type { NotificationEvent } from "./events.ts"
import { retryDueAt } from "./schedule.ts"
import type { State } from "./state.ts"

/**
 * Folds one event into the state. Total: an event that does not fit the
 * state (which `decide` never emits) leaves it unchanged, and `invariants`
 * and the audit replay report the history instead.
 */
export const evolve = (state: State, event: NotificationEvent): State => {
  switch (event._tag) {
    case "NotificationScheduled": {
      if (state.status !== "ABSENT") return state
      const { _tag, at, ...notification } = event
      return {
        status: "PENDING",
        notification,
        scheduledAt: at,
        round: 1,
        roundStartedAt: at,
        roundRequestedBy: undefined,
        attemptsInRound: 0,
        attemptsTotal: 0,
        lastAttempt: undefined,
        nextAttemptAt: at,
      }
    }
    case "NotificationAttempted": {
      if (state.status !== "PENDING") return state
      const { _tag, ...attempt } = event
      const { nextAttemptAt: _, status: __, ...scheduled } = state
      const attempted = {
        ...scheduled,
        attemptsInRound: event.attempt,
        attemptsTotal: state.attemptsTotal + 1,
        lastAttempt: attempt,
      }
      if (event.outcome._tag === "Delivered") return { ...attempted, status: "DELIVERED", deliveredAt: event.at }
      const dueAt = retryDueAt(event.at, event.attempt)
      // The round's last failure gives up at once; `decide` records that with a
      // NotificationGivenUp in the same append, so readers see it said.
      if (dueAt === undefined)
        return { ...attempted, status: "GIVEN_UP", givenUpAt: event.at, reason: { _tag: "AttemptsExhausted" } }
      return { ...attempted, status: "PENDING", nextAttemptAt: dueAt }
    }
    case "NotificationGivenUp": {
      // Given up already: the round's last failed attempt said so (see above).
      if (state.status !== "PENDING") return state
      const { nextAttemptAt: _, status: __, ...scheduled } = state
      return { ...scheduled, status: "GIVEN_UP", givenUpAt: event.at, reason: event.reason }
    }
    case "NotificationResent": {
      if (state.status !== "DELIVERED" && state.status !== "GIVEN_UP") return state
      return {
        status: "PENDING",
        notification: state.notification,
        scheduledAt: state.scheduledAt,
        round: event.round,
        roundStartedAt: event.at,
        roundRequestedBy: event.requestedBy,
        attemptsInRound: 0,
        attemptsTotal: state.attemptsTotal,
        lastAttempt: state.lastAttempt,
        nextAttemptAt: event.at,
      }
    }
  }
}
