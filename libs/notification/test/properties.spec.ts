import { test } from "@fast-check/vitest"
import { fold } from "@mizan/eventsourcing"
import { minuteMs } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import {
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

/**
 * What the kit's laws do not say (kit.spec.ts runs them: the rules after
 * every event, the lifecycle, at most 8 attempts a round none before it is
 * due, a retry right after its original deciding nothing): that a closed
 * notification decides nothing but a resend, refused commands included, and
 * the spec's schedule to the minute.
 */
describe("notification properties", () => {
  test.prop([histories], { numRuns })("nothing happens after Delivered or GivenUp except a resend", (commands) => {
    runHistory(commands, (command, before, decided) => {
      if (!isClosed(before) || command._tag === "Resend") return
      if (Result.isSuccess(decided)) expect(decided.success).toEqual([])
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
