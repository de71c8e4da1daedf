import { minuteMs, type Timestamp } from "@mizan/kernel"

/**
 * The spec's retry schedule (docs/api.md#notifications): a failed
 * notification is sent again 2, 10, 10, 60, 120, 360 and 900 minutes after
 * the previous attempt, at most 7 times after the first. The first attempt of
 * a round goes out at once, so a round holds at most 8 attempts, the last one
 * 1462 minutes (about a day) after the first.
 */
export const retryScheduleMinutes = [2, 10, 10, 60, 120, 360, 900] as const

/** The first attempt plus one per retry. */
export const attemptsPerRoundMax = retryScheduleMinutes.length + 1

/**
 * How long after attempt number `attempt` (1-based, within its round) the next
 * one is due, or undefined when that attempt was the round's last.
 */
export const retryDelayMs = (attempt: number): number | undefined => {
  const minutes = retryScheduleMinutes[attempt - 1]
  return minutes === undefined ? undefined : minutes * minuteMs
}

/** When the attempt after `attempt` (made at `at`) is due, or undefined when the round is over. */
export const retryDueAt = (at: Timestamp, attempt: number): Timestamp | undefined => {
  const delayMs = retryDelayMs(attempt)
  return delayMs === undefined ? undefined : ((at + delayMs) as Timestamp)
}
