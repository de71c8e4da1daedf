/**
 * The notification kit (`src/testing/`): its histories keep every law of
 * the real aggregate, retries right after their original decide nothing,
 * and each law throws LawBroken on code or streams broken on purpose.
 */
import { test } from "@fast-check/vitest"
import { historyOf, withRetries } from "@mizan/eventsourcing/testing"
import { timestamp } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Notification } from "../src/index.ts"
import {
  LawBroken,
  notificationCommands,
  notificationLifecycleHolds,
  notificationRetries,
  notificationRulesHold,
  notificationScheduleHolds,
  retriesDecideNothing,
  retriesRightAfterDecideNothing,
  validNotificationHistories,
} from "../src/testing/index.ts"
import { atMinute, deliverAt, failAt, resendAt, schedule as scheduleAt } from "./notifications.ts"

const failureOf = (run: () => unknown): unknown => {
  try {
    run()
  } catch (error) {
    return (error as { readonly cause?: unknown }).cause ?? error
  }
  return undefined
}

const schedule = scheduleAt(0)
const refuseUrl: Notification.Command = {
  _tag: "RefuseUrl",
  at: atMinute(0),
  reason: { _tag: "UrlRefused", detail: "10.1.2.3 is a private address" },
}

describe("the notification histories", () => {
  test.prop([validNotificationHistories], { numRuns: 200 })(
    "keep the rules, the lifecycle and the retry schedule after every event",
    (history) => {
      expect(notificationRulesHold(history.appends)).toEqual(history.state)
      notificationLifecycleHolds(history.events)
      notificationScheduleHolds(history.events)
    },
  )

  it("reach every status, a second round and a round given up after 8 attempts, on a fixed seed", () => {
    const histories = fc.sample(validNotificationHistories, { numRuns: 300, seed: 16 })
    expect(new Set(histories.map((h) => h.state.status))).toEqual(new Set(["PENDING", "DELIVERED", "GIVEN_UP"]))
    const events = histories.flatMap((h) => h.events)
    expect(events.some((e) => e._tag === "NotificationResent")).toBe(true)
    expect(events.some((e) => e._tag === "NotificationAttempted" && e.attempt === 8)).toBe(true)
  })

  test.prop([notificationRetries], { numRuns: 300 })("decide nothing new for a retry right after it", (history) => {
    retriesRightAfterDecideNothing(Notification.aggregate)(history.commands)
  })

  it("take an attempt of the next round, equal to an earlier round's, as new", () => {
    // The counterexample that a law comparing with every accepted command found: a resend, then an attempt
    // at the same minute with the same outcome as the first round's.
    const commands = [schedule, deliverAt(0), resendAt(0), deliverAt(0)]
    expect(failureOf(() => retriesDecideNothing(Notification.aggregate)(commands))).toMatchObject({
      name: "LawBroken",
      step: 4,
    })
    expect(failureOf(() => retriesRightAfterDecideNothing(Notification.aggregate)(commands))).toBeUndefined()
  })

  it("catch an attempt recorded twice right after itself", () => {
    // A notification that forgets its delivery: a second record of the same attempt is taken again.
    const forgetsDelivery: typeof Notification.aggregate = {
      ...Notification.aggregate,
      evolve: (state, event) =>
        event._tag === "NotificationAttempted" ? state : Notification.aggregate.evolve(state, event),
    }
    expect(
      failureOf(() => retriesRightAfterDecideNothing(forgetsDelivery)([schedule, deliverAt(0), deliverAt(0)])),
    ).toMatchObject({ name: "LawBroken", step: 3, what: "RecordAttempt" })
  })

  it("take a RefuseUrl of an earlier round, retried after a resend, as new: retries are safe right after only", () => {
    const resend: Notification.Command = { _tag: "Resend", at: atMinute(5), requestedBy: "ops@mizan" }
    expect(
      failureOf(() => retriesDecideNothing(Notification.aggregate)([schedule, refuseUrl, resend, refuseUrl])),
    ).toMatchObject({
      name: "LawBroken",
      step: 4,
      what: "RefuseUrl",
    })
    const late = withRetries(Notification.aggregate, notificationCommands)
    expect(
      failureOf(() =>
        fc.assert(
          fc.property(late, (h) => retriesDecideNothing(Notification.aggregate)(h.commands)),
          { seed: 16, numRuns: 500 },
        ),
      ),
    ).toBeInstanceOf(LawBroken)
  })
})

describe("the laws catch broken code", () => {
  it("notificationScheduleHolds names an attempt that a hasty notifier recorded before it was due", () => {
    // A notifier that records its attempt at the time it made it, but lets the decider judge the due time.
    const hasty: typeof Notification.aggregate = {
      ...Notification.aggregate,
      decide: (command, state) =>
        command._tag === "RecordAttempt" && state.status === "PENDING"
          ? Result.map(
              Notification.aggregate.decide(
                { ...command, at: timestamp(Math.max(command.at, state.nextAttemptAt)) },
                state,
              ),
              (events) => events.map((e) => (e._tag === "NotificationAttempted" ? { ...e, at: command.at } : e)),
            )
          : Notification.aggregate.decide(command, state),
    }
    const commands = [schedule, failAt(0), failAt(1)]
    expect(failureOf(() => notificationScheduleHolds(historyOf(hasty)(commands).events))).toMatchObject({
      name: "LawBroken",
      rule: "no attempt before it is due",
      step: 3,
      what: "NotificationAttempted",
    })
    notificationScheduleHolds(historyOf(Notification.aggregate)(commands).events)
  })

  const [scheduled, attempted] = historyOf(Notification.aggregate)([schedule, failAt(0)]).events
  if (scheduled === undefined || attempted === undefined) throw new Error("the attempt was refused")
  const givenUp: Notification.Event = {
    _tag: "NotificationGivenUp",
    at: atMinute(3),
    reason: { _tag: "AttemptsExhausted" },
  }

  it("notificationRulesHold names a notification given up after one attempt", () => {
    expect(failureOf(() => notificationRulesHold([scheduled, attempted, givenUp]))).toMatchObject({
      name: "LawBroken",
      rule: "a notification given up for its attempts made them all, none acknowledged",
      detail: "given up after 1 attempts",
      step: 3,
      what: "NotificationGivenUp",
    })
  })

  it("notificationLifecycleHolds names a delivered notification given up", () => {
    const delivered: Notification.Event = {
      _tag: "NotificationAttempted",
      round: 1,
      attempt: 2,
      at: atMinute(2),
      outcome: { _tag: "Delivered", statusCode: 200 },
    }
    expect(notificationLifecycleHolds([scheduled, attempted, delivered])).toBe("DELIVERED")
    expect(failureOf(() => notificationLifecycleHolds([scheduled, attempted, delivered, givenUp]))).toMatchObject({
      name: "LawBroken",
      step: 4,
      detail: "DELIVERED → GIVEN_UP",
    })
  })

  it("notificationScheduleHolds names a ninth attempt and one numbered out of turn", () => {
    const attempts = Array.from(
      { length: 9 },
      (_, i): Notification.Event => ({
        _tag: "NotificationAttempted",
        round: 1,
        attempt: i + 1,
        at: atMinute(10_000 * i),
        outcome: { _tag: "Timeout", afterMs: 10_000 },
      }),
    )
    expect(failureOf(() => notificationScheduleHolds([scheduled, ...attempts]))).toMatchObject({
      rule: "at most 8 attempts a round",
      step: 10,
    })
    expect(failureOf(() => notificationScheduleHolds([scheduled, ...attempts.slice(1)]))).toMatchObject({
      rule: "attempts are numbered in their round",
      step: 2,
    })
  })
})
