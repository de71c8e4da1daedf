import { fold } from "@mizan/eventsourcing"
import { issueMessage } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { AttemptFailure, AttemptOutcome, OrderKey, sameRecord } from "../src/index.ts"
import {
  decide,
  evolve,
  initialState,
  invariants,
  isClosed,
  isStream as isNotificationStream,
  type Command as NotificationCommand,
  Command as NotificationCommandSchema,
  type Event as NotificationEvent,
  Event as NotificationEventSchema,
  aggregate as notificationAggregate,
  eventCodec as notificationEventCodec,
  streamId as notificationStreamId,
  type Pending,
  roundOpeningEventTypes,
  type State,
} from "../src/notification.ts"
import { atMinute, deliverAt, details, failAt, onTimeAttemptMinutes, resendAt, schedule } from "./notifications.ts"

/** The state after commands that must all be accepted (or decide nothing). */
const after = (...commands: ReadonlyArray<NotificationCommand>): State =>
  commands.reduce((state, command) => {
    const decided = decide(command, state)
    if (Result.isFailure(decided)) throw decided.failure
    return fold(notificationAggregate, decided.success, state)
  }, initialState)

const refusalOf = (command: NotificationCommand, state: State) => {
  const decided = decide(command, state)
  return Result.isFailure(decided) ? { notifyId: decided.failure.notifyId, detail: decided.failure.detail } : "decided"
}

const decidesNothing = (command: NotificationCommand, state: State) =>
  expect(decide(command, state)).toEqual(Result.succeed([]))

const refuseUrl = (minute: number, detail = "http is not allowed"): NotificationCommand => ({
  _tag: "RefuseUrl",
  at: atMinute(minute),
  reason: { _tag: "UrlRefused", detail },
})

const failedRound = () => after(schedule(0), ...onTimeAttemptMinutes.map(failAt))

describe("what a refused notification command says", () => {
  it("names no notification before one is scheduled, and says it is not scheduled", () => {
    for (const command of [failAt(0), refuseUrl(0), resendAt(0)])
      expect(refusalOf(command, initialState)).toEqual({ notifyId: "", detail: "is not scheduled" })
  })

  it("names the notification and the rule once it is scheduled", () => {
    const delivered = after(schedule(0), deliverAt(0))
    expect(refusalOf(failAt(5), delivered)).toEqual({
      notifyId: details.notifyId,
      detail: "is delivered: only a resend opens it again",
    })
    expect(refusalOf(failAt(5000), failedRound())).toEqual({
      notifyId: details.notifyId,
      detail: "is given up: only a resend opens it again",
    })
    expect(refusalOf(refuseUrl(5), delivered)).toEqual({ notifyId: details.notifyId, detail: "is delivered" })
    expect(refusalOf({ ...schedule(0), notifyId: "other" } as NotificationCommand, delivered)).toEqual({
      notifyId: details.notifyId,
      detail: "is already scheduled; other is another notification",
    })
  })

  it("writes its message as the notification and the detail", () => {
    const decided = decide(resendAt(1), after(schedule(0)))
    expect(Result.isFailure(decided) && decided.failure.message).toBe(
      `notification ${details.notifyId}: is still being delivered`,
    )
  })
})

describe("repeats decide nothing; anything else is refused", () => {
  it("takes the round's last attempt again, same time and outcome, as a repeat, and refuses another outcome", () => {
    const failedOnce = after(schedule(0), failAt(0))
    decidesNothing(failAt(0), failedOnce)
    expect(refusalOf(deliverAt(0), failedOnce)).toMatchObject({ detail: expect.stringMatching(/is before it is due/) })
    decidesNothing(deliverAt(3), after(schedule(0), deliverAt(3)))
  })

  it("takes an attempt of an earlier round, repeated after a resend, as an attempt before its time", () =>
    expect(refusalOf(deliverAt(0), after(schedule(0), deliverAt(0), resendAt(10)))).toMatchObject({
      detail: expect.stringMatching(/is before it is due/),
    }))

  it("delivers on the round's last attempt, rather than giving up", () => {
    const sevenFailed = after(schedule(0), ...onTimeAttemptMinutes.slice(0, 7).map(failAt))
    expect(after(schedule(0), ...onTimeAttemptMinutes.slice(0, 7).map(failAt), deliverAt(1462))).toMatchObject({
      status: "DELIVERED",
    })
    expect(decide(deliverAt(1462), sevenFailed)).toEqual(
      Result.succeed([
        {
          _tag: "NotificationAttempted",
          round: 1,
          attempt: 8,
          at: atMinute(1462),
          outcome: { _tag: "Delivered", statusCode: 200 },
        },
      ]),
    )
  })

  it("takes the resend that opened the round again as a repeat, until an attempt is made in it", () => {
    const resent = after(schedule(0), deliverAt(0), resendAt(10))
    decidesNothing(resendAt(10), resent)
    expect(refusalOf(resendAt(11), resent)).toMatchObject({ detail: "is still being delivered" })
    expect(refusalOf(resendAt(10, "someone@else"), resent)).toMatchObject({ detail: "is still being delivered" })
    expect(refusalOf(resendAt(10), after(schedule(0), deliverAt(0), resendAt(10), failAt(10)))).toMatchObject({
      detail: "is still being delivered",
    })
    // The first round was opened by scheduling, not by a resend.
    expect(refusalOf(resendAt(0), after(schedule(0)))).toMatchObject({ detail: "is still being delivered" })
  })

  it("gives up on a refused URL once; the same refusal again is a repeat, another is refused", () => {
    const refused = after(schedule(0), refuseUrl(1))
    expect(refused).toMatchObject({ status: "GIVEN_UP", reason: { _tag: "UrlRefused" } })
    decidesNothing(refuseUrl(1), refused)
    expect(refusalOf(refuseUrl(2), refused)).toMatchObject({ detail: "is already given up" })
    expect(refusalOf(refuseUrl(1, "another reason"), refused)).toMatchObject({ detail: "is already given up" })
  })

  it("opens a new round after a delivery or a give-up, numbered one more", () => {
    expect(after(schedule(0), deliverAt(0), resendAt(10))).toMatchObject({ status: "PENDING", round: 2 })
    expect(after(schedule(0), refuseUrl(0), resendAt(10), deliverAt(10), resendAt(20))).toMatchObject({ round: 3 })
  })
})

describe("evolve leaves a state alone when an event does not fit it", () => {
  const pending = after(schedule(0))
  const delivered = after(schedule(0), deliverAt(0))
  const fits = (state: State, event: NotificationEvent) => expect(evolve(state, event)).toBe(state)

  it("keeps the first scheduling, an attempt after delivery, a give-up after delivery, a resend of a pending one", () => {
    fits(pending, { _tag: "NotificationScheduled", ...details, notifyId: "other", at: atMinute(9) })
    fits(delivered, {
      _tag: "NotificationAttempted",
      round: 1,
      attempt: 2,
      at: atMinute(9),
      outcome: { _tag: "Timeout", afterMs: 1 },
    })
    fits(delivered, { _tag: "NotificationGivenUp", at: atMinute(9), reason: { _tag: "AttemptsExhausted" } })
    fits(pending, { _tag: "NotificationResent", round: 2, at: atMinute(9), requestedBy: "ops" })
  })
})

describe("the round's last failed attempt gives up by itself", () => {
  it("folds a history cut after that attempt, before its give-up, into a given-up notification", () => {
    const events: Array<NotificationEvent> = [
      { _tag: "NotificationScheduled", ...details, at: atMinute(0) },
      ...onTimeAttemptMinutes.map(
        (minute, i): NotificationEvent => ({
          _tag: "NotificationAttempted",
          round: 1,
          attempt: i + 1,
          at: atMinute(minute),
          outcome: { _tag: "HttpStatus", statusCode: 503 },
        }),
      ),
    ]
    expect(fold(notificationAggregate, events)).toMatchObject({
      status: "GIVEN_UP",
      givenUpAt: atMinute(1462),
      reason: { _tag: "AttemptsExhausted" },
    })
  })
})

describe("invariants name what a damaged state breaks", () => {
  const pending = after(schedule(0), failAt(0)) as Pending
  /** What each broken rule says this state did. */
  const broken = (state: State) => invariants(state).map((rule) => rule.detail)
  const brokenBy = (changes: Partial<Record<string, unknown>>) => broken({ ...pending, ...changes } as State)

  it("hold on the states the decider reaches", () => {
    expect(invariants(initialState)).toEqual([])
    expect(invariants(pending)).toEqual([])
    expect(invariants(failedRound())).toEqual([])
    expect(invariants(after(schedule(0), deliverAt(0)))).toEqual([])
  })

  it("report the round, the counts and the times out of order", () => {
    expect(
      brokenBy({ round: 0, lastAttempt: undefined, attemptsInRound: 0, nextAttemptAt: pending.roundStartedAt }),
    ).toEqual(["round 0 is not 1 or more"])
    expect(brokenBy({ attemptsInRound: 9, attemptsTotal: 9 })).toContain("9 attempts in a round, at most 8 are allowed")
    expect(brokenBy({ attemptsInRound: -1 })).toContain("-1 attempts in a round, at most 8 are allowed")
    expect(brokenBy({ attemptsTotal: 0 })).toEqual(["fewer attempts in total than in the round"])
    expect(brokenBy({ roundStartedAt: atMinute(-1) })).toEqual([
      "the round started before the notification was scheduled",
    ])
    expect(brokenBy({ attemptsInRound: 2, attemptsTotal: 2 })).toContain(
      "the round counts 2 attempts, its last attempt is number 1",
    )
    expect(brokenBy({ lastAttempt: undefined, attemptsInRound: 0, nextAttemptAt: atMinute(0) })).toEqual([])
    expect(brokenBy({ roundStartedAt: atMinute(1), scheduledAt: atMinute(0), nextAttemptAt: atMinute(2) })).toEqual([
      "an attempt was made before its round started",
    ])
  })

  it("report counts without any attempt behind them, whatever the status", () => {
    expect(brokenBy({ lastAttempt: undefined })).toContain("the round counts 1 attempts, its last attempt is number 0")
    const delivered = after(schedule(0), deliverAt(0))
    expect(broken({ ...delivered, lastAttempt: undefined, attemptsInRound: 0 } as State)).toEqual([
      "delivered without an acknowledged attempt",
    ])
    const givenUp = failedRound()
    expect(broken({ ...givenUp, lastAttempt: undefined } as State)).toEqual([
      "the round counts 8 attempts, its last attempt is number 0",
    ])
  })

  it("report a pending notification due off its schedule, or pending after an acknowledgement", () => {
    expect(brokenBy({ nextAttemptAt: atMinute(3) })).toEqual([
      `next attempt due at ${atMinute(3)}, the schedule says ${atMinute(2)}`,
    ])
    const acknowledged = { ...pending.lastAttempt, outcome: { _tag: "Delivered", statusCode: 200 } }
    expect(brokenBy({ lastAttempt: acknowledged })).toContain("pending after an acknowledged attempt")
  })

  it("report a delivery without its acknowledged attempt, and a give-up that did not use up its round", () => {
    const delivered = after(schedule(0), deliverAt(0))
    expect(broken({ ...delivered, deliveredAt: atMinute(1) } as State)).toEqual([
      "delivered without an acknowledged attempt",
    ])
    expect(broken({ ...delivered, lastAttempt: pending.lastAttempt } as State)).toEqual([
      "delivered without an acknowledged attempt",
    ])
    const givenUp = failedRound()
    expect(
      broken({
        ...givenUp,
        attemptsInRound: 7,
        lastAttempt: { ...(givenUp as Pending).lastAttempt, attempt: 7 },
      } as State),
    ).toEqual(["given up after 7 attempts"])
    const lastAcknowledged = { ...(givenUp as Pending).lastAttempt, outcome: { _tag: "Delivered", statusCode: 200 } }
    expect(broken({ ...givenUp, lastAttempt: lastAcknowledged } as State)).toEqual([
      "given up after an acknowledged attempt",
    ])
    // A refused URL gives up with no attempt at all.
    expect(invariants(after(schedule(0), refuseUrl(0)))).toEqual([])
  })
})

describe("notification data", () => {
  const messageOf = (schema: Schema.Top & Schema.Decoder<unknown>, input: unknown) => {
    const result = Schema.decodeUnknownResult(schema)(input)
    return Result.isFailure(result) ? issueMessage(result.failure.issue) : "ok"
  }

  it("reads every kind of attempt outcome", () => {
    for (const outcome of [
      { _tag: "Delivered", statusCode: 200 },
      { _tag: "HttpStatus", statusCode: 503 },
      { _tag: "BadAnswer", statusCode: 200 },
      { _tag: "Timeout", afterMs: 10_000 },
      { _tag: "ConnectionFailed", code: "ECONNREFUSED" },
    ])
      expect(Schema.decodeUnknownSync(AttemptOutcome)(outcome)).toEqual(outcome)
  })

  it("knows the order keys of every kind of order the service announces", () => {
    for (const key of [
      "acquireOrder",
      "refundOrder",
      "transferOrder",
      "transferToBankOrder",
      "transferBankCardOrder",
      "vamDepositOrder",
    ])
      expect(messageOf(OrderKey, key)).toBe("ok")
    expect(messageOf(OrderKey, "payoutOrder")).not.toBe("ok")
  })

  it("reads every command, and numbers rounds from 1 and attempts from 1 to 8", () => {
    for (const command of [schedule(0), failAt(1), refuseUrl(1), resendAt(2)])
      expect(
        Schema.decodeUnknownSync(NotificationCommandSchema)(Schema.encodeSync(NotificationCommandSchema)(command)),
      ).toEqual(command)
    const attempted = {
      _tag: "NotificationAttempted",
      round: 1,
      attempt: 8,
      at: atMinute(1),
      outcome: { _tag: "Timeout", afterMs: 1 },
    }
    expect(messageOf(NotificationEventSchema, attempted)).toBe("ok")
    expect(messageOf(NotificationEventSchema, { ...attempted, round: 0 })).toBe("round must be 1 or more")
    expect(messageOf(NotificationEventSchema, { ...attempted, attempt: 9 })).toBe("attempt must be from 1 to 8")
  })

  it("records every event type at schema version 1", () =>
    expect(notificationEventCodec.versions).toEqual({
      NotificationScheduled: { current: 1 },
      NotificationAttempted: { current: 1 },
      NotificationGivenUp: { current: 1 },
      NotificationResent: { current: 1 },
    }))

  it("reads every kind of failed attempt, and knows which events open a round", () => {
    for (const failure of [
      { _tag: "HttpStatus", statusCode: 503 },
      { _tag: "BadAnswer", statusCode: 200 },
      { _tag: "Timeout", afterMs: 10_000 },
      { _tag: "ConnectionFailed", code: "ECONNRESET" },
    ])
      expect(Schema.decodeUnknownSync(AttemptFailure)(failure)).toEqual(failure)
    expect(messageOf(AttemptFailure, { _tag: "Delivered", statusCode: 200 })).not.toBe("ok")
    expect(roundOpeningEventTypes).toEqual(new Set(["NotificationScheduled", "NotificationResent"]))
  })

  it("compares outcomes field by field", () => {
    expect(sameRecord({ _tag: "UrlRefused" }, { _tag: "UrlRefused", detail: "x" })).toBe(false)
    expect(sameRecord({ _tag: "HttpStatus", statusCode: 503 }, { _tag: "HttpStatus", statusCode: 503 })).toBe(true)
    expect(sameRecord({ _tag: "HttpStatus", statusCode: 503 }, { _tag: "HttpStatus", statusCode: 502 })).toBe(false)
    expect(sameRecord({ _tag: "AttemptsExhausted" }, { _tag: "UrlRefused", detail: "x" })).toBe(false)
  })

  it("keeps each notification on a stream of its own, and knows a closed one", () => {
    expect(notificationStreamId("abc")).toBe("notification-abc")
    expect(isNotificationStream("notification-abc")).toBe(true)
    expect(isNotificationStream("acquiring-notification-abc")).toBe(false)
    expect(isClosed(after(schedule(0), deliverAt(0)))).toBe(true)
    expect(isClosed(failedRound())).toBe(true)
    expect(isClosed(after(schedule(0)))).toBe(false)
  })
})
