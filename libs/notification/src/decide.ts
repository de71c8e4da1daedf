import { Result } from "effect"
import type { NotificationCommand, RecordAttempt, RefuseUrl, Resend } from "./commands.ts"
import type { NotificationEvent } from "./events.ts"
import { sameRecord } from "./outcome.ts"
import { NotificationRefused } from "./refusal.ts"
import { attemptsPerRoundMax } from "./schedule.ts"
import type { State } from "./state.ts"

type Decision = Result.Result<ReadonlyArray<NotificationEvent>, NotificationRefused>

const nothing: Decision = Result.succeed([])

const refuse = (state: State, detail: string): Decision =>
  Result.fail(
    new NotificationRefused({ notifyId: state.status === "ABSENT" ? "" : state.notification.notifyId, detail }),
  )

/** The command repeats the round's last attempt exactly (a retried append): nothing new happened. */
const repeatsLastAttempt = (state: State, command: typeof RecordAttempt.Type): boolean =>
  state.status !== "ABSENT" &&
  state.lastAttempt !== undefined &&
  state.lastAttempt.round === state.round &&
  state.lastAttempt.at === command.at &&
  sameRecord(state.lastAttempt.outcome, command.outcome)

/** The command repeats the resend that opened the current round. */
const repeatsLastResend = (state: State, command: typeof Resend.Type): boolean =>
  state.status === "PENDING" &&
  state.round > 1 &&
  state.attemptsInRound === 0 &&
  state.roundStartedAt === command.at &&
  state.roundRequestedBy === command.requestedBy

const decideAttempt = (state: State, command: typeof RecordAttempt.Type): Decision => {
  if (repeatsLastAttempt(state, command)) return nothing
  switch (state.status) {
    case "ABSENT":
      return refuse(state, "is not scheduled")
    case "DELIVERED":
    case "GIVEN_UP":
      return refuse(
        state,
        `is ${state.status === "DELIVERED" ? "delivered" : "given up"}: only a resend opens it again`,
      )
    case "PENDING": {
      // The schedule is a rule of the notification, not only of the notifier
      // that keeps it: an attempt before it is due is refused here.
      if (command.at < state.nextAttemptAt)
        return refuse(state, `attempt at ${command.at} is before it is due at ${state.nextAttemptAt}`)
      const attempt = state.attemptsInRound + 1
      const attempted: NotificationEvent = {
        _tag: "NotificationAttempted",
        round: state.round,
        attempt,
        at: command.at,
        outcome: command.outcome,
      }
      if (command.outcome._tag !== "Delivered" && attempt === attemptsPerRoundMax)
        return Result.succeed([
          attempted,
          { _tag: "NotificationGivenUp", at: command.at, reason: { _tag: "AttemptsExhausted" } },
        ])
      return Result.succeed([attempted])
    }
  }
}

const decideRefuseUrl = (state: State, command: typeof RefuseUrl.Type): Decision => {
  switch (state.status) {
    case "ABSENT":
      return refuse(state, "is not scheduled")
    case "PENDING":
      return Result.succeed([{ _tag: "NotificationGivenUp", at: command.at, reason: command.reason }])
    case "GIVEN_UP":
      return state.givenUpAt === command.at && sameRecord(state.reason, command.reason)
        ? nothing
        : refuse(state, "is already given up")
    case "DELIVERED":
      return refuse(state, "is delivered")
  }
}

const decideResend = (state: State, command: typeof Resend.Type): Decision => {
  switch (state.status) {
    case "ABSENT":
      return refuse(state, "is not scheduled")
    case "PENDING":
      return repeatsLastResend(state, command) ? nothing : refuse(state, "is still being delivered")
    case "DELIVERED":
    case "GIVEN_UP":
      return Result.succeed([
        { _tag: "NotificationResent", round: state.round + 1, at: command.at, requestedBy: command.requestedBy },
      ])
  }
}

/**
 * Decides what a command does to a notification. Pure: time arrives on the
 * command. After Delivered or GivenUp only `Resend` does anything, and a
 * command repeated decides nothing.
 */
export const decide = (command: NotificationCommand, state: State): Decision => {
  switch (command._tag) {
    case "Schedule": {
      if (state.status !== "ABSENT")
        return state.notification.notifyId === command.notifyId
          ? nothing
          : refuse(state, `is already scheduled; ${command.notifyId} is another notification`)
      const { _tag, ...scheduled } = command
      return Result.succeed([{ ...scheduled, _tag: "NotificationScheduled" }])
    }
    case "RecordAttempt":
      return decideAttempt(state, command)
    case "RefuseUrl":
      return decideRefuseUrl(state, command)
    case "Resend":
      return decideResend(state, command)
  }
}
