import { test } from "@fast-check/vitest"
import { fold } from "@mizan/eventsourcing"
import { minuteMs } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import { attemptsPerRoundMax } from "../src/index.ts"
import {
  invariants,
  isClosed,
  type Command as NotificationCommand,
  type Event as NotificationEvent,
  nextAttemptAt,
  aggregate as notificationAggregate,
  type State,
} from "../src/notification.ts"
import { notificationCommands } from "../src/testing/index.ts"
import { atMinute, schedule } from "./notifications.ts"

const { decide } = notificationAggregate
const numRuns = 200

/**
 * Runs one of the kit's random histories (`notificationCommands`: scheduled,
 * then attempts, refusals and resends minutes apart), calling `check` with
 * each command, the state it met and what it decided.
 */
const runHistory = (
  commands: ReadonlyArray<NotificationCommand>,
  check: (
    command: NotificationCommand,
    before: State,
    decided: Result.Result<ReadonlyArray<NotificationEvent>, unknown>,
  ) => void,
): State => {
  let state = notificationAggregate.initialState
  for (const command of commands) {
    const decided = decide(command, state)
    check(command, state, decided)
    if (Result.isSuccess(decided)) state = fold(notificationAggregate, decided.success, state)
  }
  return state
}

const histories = notificationCommands

describe("notification properties", () => {
  test.prop([histories], { numRuns })("every state of every history keeps the invariants", (commands) => {
    runHistory(commands, (command, before, decided) => {
      if (Result.isFailure(decided)) return
      const after = fold(notificationAggregate, decided.success, before)
      expect(invariants(after), `after ${command._tag}`).toEqual([])
    })
  })

  test.prop([histories], { numRuns })("never more than 8 attempts in a round", (commands) => {
    const perRound = new Map<number, number>()
    runHistory(commands, (_command, _before, decided) => {
      if (Result.isFailure(decided)) return
      for (const event of decided.success)
        if (event._tag === "NotificationAttempted") perRound.set(event.round, (perRound.get(event.round) ?? 0) + 1)
    })
    for (const count of perRound.values()) expect(count).toBeLessThanOrEqual(attemptsPerRoundMax)
  })

  test.prop([histories], { numRuns })("no attempt is accepted before it is due", (commands) => {
    runHistory(commands, (command, before, decided) => {
      if (command._tag !== "RecordAttempt" || Result.isFailure(decided) || decided.success.length === 0) return
      const dueAt = nextAttemptAt(before)
      expect(dueAt).toBeDefined()
      expect(command.at).toBeGreaterThanOrEqual(dueAt as number)
    })
  })

  test.prop([histories], { numRuns })("nothing happens after Delivered or GivenUp except a resend", (commands) => {
    runHistory(commands, (command, before, decided) => {
      if (!isClosed(before) || command._tag === "Resend") return
      if (Result.isSuccess(decided)) expect(decided.success).toEqual([])
    })
  })

  test.prop([histories], { numRuns })("a command repeated at once decides nothing", (commands) => {
    runHistory(commands, (command, before, decided) => {
      if (Result.isFailure(decided)) return
      const after = fold(notificationAggregate, decided.success, before)
      expect(decide(command, after)).toEqual(Result.succeed([]))
    })
  })

  /** The spec's schedule as the spec writes it ("2, 10, 10, 60, 120, 360, 900 minutes"), not the constant under test. */
  const specRetryMinutes = [2, 10, 10, 60, 120, 360, 900]

  test.prop([fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 8, maxLength: 8 })], { numRuns })(
    "a failing round follows the schedule to the minute, measured from each attempt, then gives up",
    (latenessMinutes) => {
      let state = fold(
        notificationAggregate,
        Result.getOrThrow(decide(schedule(0), notificationAggregate.initialState)),
      )
      const attemptMinutes: Array<number> = []
      for (const lateness of latenessMinutes) {
        const dueMinute = ((nextAttemptAt(state) as number) - atMinute(0)) / minuteMs
        const expectedDue =
          attemptMinutes.length === 0
            ? 0
            : (attemptMinutes.at(-1) as number) + (specRetryMinutes[attemptMinutes.length - 1] as number)
        expect(dueMinute).toBe(expectedDue)
        attemptMinutes.push(dueMinute + lateness)
        const decided = decide(
          { _tag: "RecordAttempt", at: atMinute(dueMinute + lateness), outcome: { _tag: "Timeout", afterMs: 10_000 } },
          state,
        )
        state = fold(notificationAggregate, Result.getOrThrow(decided), state)
      }
      expect(state).toMatchObject({ status: "GIVEN_UP", reason: { _tag: "AttemptsExhausted" } })
    },
  )
})
