import type { BrokenRule } from "@mizan/kernel"
import { attemptsPerRoundMax, retryDueAt } from "./schedule.ts"
import type { State } from "./state.ts"

export const rules = {
  roundNumber: "the round is a whole number from 1",
  attemptsInRound: `a round has at most ${attemptsPerRoundMax} attempts`,
  attemptsTotal: "the attempts in total are at least those of the round",
  roundAfterScheduling: "a round starts after the notification was scheduled",
  roundCountsItsAttempts: "the round counts the attempts it made",
  attemptInRound: "an attempt is made after its round started",
  pendingUnacknowledged: "a pending notification has no acknowledged attempt in its round",
  nextAttemptOnSchedule: "the next attempt is due when the schedule says",
  deliveredAcknowledged: "a delivered notification was acknowledged by its last attempt",
  givenUpExhausted: "a notification given up for its attempts made them all, none acknowledged",
} as const

/**
 * The rules a notification's state always keeps, as a list of the broken
 * ones (each with what this state did, in `detail`): run by the property tests after every step and by the audit replay
 * after every event.
 */
export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  if (state.status === "ABSENT") return []
  const broken: Array<BrokenRule> = []
  const { round, attemptsInRound, lastAttempt } = state
  if (!Number.isSafeInteger(round) || round < 1)
    broken.push({ rule: rules.roundNumber, detail: `round ${round} is not 1 or more` })
  if (attemptsInRound < 0 || attemptsInRound > attemptsPerRoundMax)
    broken.push({
      rule: rules.attemptsInRound,
      detail: `${attemptsInRound} attempts in a round, at most ${attemptsPerRoundMax} are allowed`,
    })
  if (state.attemptsTotal < attemptsInRound)
    broken.push({ rule: rules.attemptsTotal, detail: "fewer attempts in total than in the round" })
  if (state.roundStartedAt < state.scheduledAt)
    broken.push({ rule: rules.roundAfterScheduling, detail: "the round started before the notification was scheduled" })
  const thisRound = lastAttempt !== undefined && lastAttempt.round === round ? lastAttempt : undefined
  if ((thisRound?.attempt ?? 0) !== attemptsInRound)
    broken.push({
      rule: rules.roundCountsItsAttempts,
      detail: `the round counts ${attemptsInRound} attempts, its last attempt is number ${thisRound?.attempt ?? 0}`,
    })
  if (thisRound !== undefined && thisRound.at < state.roundStartedAt)
    broken.push({ rule: rules.attemptInRound, detail: "an attempt was made before its round started" })
  switch (state.status) {
    case "PENDING": {
      if (thisRound?.outcome._tag === "Delivered")
        broken.push({ rule: rules.pendingUnacknowledged, detail: "pending after an acknowledged attempt" })
      const dueAt = thisRound === undefined ? state.roundStartedAt : retryDueAt(thisRound.at, thisRound.attempt)
      if (dueAt !== state.nextAttemptAt)
        broken.push({
          rule: rules.nextAttemptOnSchedule,
          detail: `next attempt due at ${state.nextAttemptAt}, the schedule says ${String(dueAt)}`,
        })
      break
    }
    case "DELIVERED":
      if (thisRound?.outcome._tag !== "Delivered" || thisRound.at !== state.deliveredAt)
        broken.push({ rule: rules.deliveredAcknowledged, detail: "delivered without an acknowledged attempt" })
      break
    case "GIVEN_UP":
      if (state.reason._tag === "AttemptsExhausted") {
        if (attemptsInRound !== attemptsPerRoundMax)
          broken.push({ rule: rules.givenUpExhausted, detail: `given up after ${attemptsInRound} attempts` })
        if (thisRound?.outcome._tag === "Delivered")
          broken.push({ rule: rules.givenUpExhausted, detail: "given up after an acknowledged attempt" })
      }
      break
  }
  return broken
}
