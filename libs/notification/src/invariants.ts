import { attemptsPerRoundMax, retryDueAt } from "./schedule.ts"
import type { State } from "./state.ts"

/**
 * The rules a notification's state always keeps, as a list of the broken
 * ones: run by the property tests after every step and by the audit replay
 * after every event.
 */
export const invariants = (state: State): ReadonlyArray<string> => {
  if (state.status === "ABSENT") return []
  const broken: Array<string> = []
  const { round, attemptsInRound, lastAttempt } = state
  if (!Number.isSafeInteger(round) || round < 1) broken.push(`round ${round} is not 1 or more`)
  if (attemptsInRound < 0 || attemptsInRound > attemptsPerRoundMax)
    broken.push(`${attemptsInRound} attempts in a round, at most ${attemptsPerRoundMax} are allowed`)
  if (state.attemptsTotal < attemptsInRound) broken.push("fewer attempts in total than in the round")
  if (state.roundStartedAt < state.scheduledAt) broken.push("the round started before the notification was scheduled")
  const thisRound = lastAttempt !== undefined && lastAttempt.round === round ? lastAttempt : undefined
  if ((thisRound?.attempt ?? 0) !== attemptsInRound)
    broken.push(`the round counts ${attemptsInRound} attempts, its last attempt is number ${thisRound?.attempt ?? 0}`)
  if (thisRound !== undefined && thisRound.at < state.roundStartedAt)
    broken.push("an attempt was made before its round started")
  switch (state.status) {
    case "PENDING": {
      if (thisRound?.outcome._tag === "Delivered") broken.push("pending after an acknowledged attempt")
      const dueAt = thisRound === undefined ? state.roundStartedAt : retryDueAt(thisRound.at, thisRound.attempt)
      if (dueAt !== state.nextAttemptAt)
        broken.push(`next attempt due at ${state.nextAttemptAt}, the schedule says ${String(dueAt)}`)
      break
    }
    case "DELIVERED":
      if (thisRound?.outcome._tag !== "Delivered" || thisRound.at !== state.deliveredAt)
        broken.push("delivered without an acknowledged attempt")
      break
    case "GIVEN_UP":
      if (state.reason._tag === "AttemptsExhausted") {
        if (attemptsInRound !== attemptsPerRoundMax) broken.push(`given up after ${attemptsInRound} attempts`)
        if (thisRound?.outcome._tag === "Delivered") broken.push("given up after an acknowledged attempt")
      }
      break
  }
  return broken
}
