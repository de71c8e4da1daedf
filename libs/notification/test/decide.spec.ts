import { fold } from "@mizan/eventsourcing"
import { deciderSpec } from "@mizan/eventsourcing/testing"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  type Event as NotificationEvent,
  nextAttemptAt,
  aggregate as notificationAggregate,
  type State,
} from "../src/notification.ts"
import { atMinute, deliverAt, details, failAt, onTimeAttemptMinutes, resendAt, schedule } from "./notifications.ts"

const spec = deciderSpec(notificationAggregate)

/** The events of a history made of commands that must all be accepted. */
const history = (...commands: ReadonlyArray<Parameters<typeof notificationAggregate.decide>[0]>) => {
  const events: Array<NotificationEvent> = []
  let state: State = notificationAggregate.initialState
  for (const command of commands) {
    const decided = notificationAggregate.decide(command, state)
    if (Result.isFailure(decided)) throw decided.failure
    events.push(...decided.success)
    state = fold(notificationAggregate, decided.success, state)
  }
  return events
}

const failedRound = () => history(schedule(0), ...onTimeAttemptMinutes.map(failAt))

describe("scheduling", () => {
  it("schedules a notification whose first attempt is due at once", () => {
    spec
      .given([])
      .when(schedule(0))
      .thenEmits([{ _tag: "NotificationScheduled", ...details, at: atMinute(0) }])
    spec
      .given([])
      .when(schedule(0))
      .thenState((state) => expect(nextAttemptAt(state)).toBe(atMinute(0)))
  })

  it("decides nothing when the same status change is scheduled again (a re-read of the log)", () => {
    spec
      .given(history(schedule(0)))
      .when(schedule(5))
      .thenNothing()
    spec
      .given(history(schedule(0), deliverAt(0)))
      .when(schedule(5))
      .thenNothing()
  })

  it("refuses to schedule another notify_id on the same stream", () => {
    spec
      .given(history(schedule(0)))
      .when({ ...schedule(0), notifyId: "another" } as Parameters<typeof notificationAggregate.decide>[0])
      .thenRejects({ _tag: "NotificationRefused" })
  })
})

describe("attempts", () => {
  it("schedules the retry 2 minutes after a failed first attempt", () => {
    spec
      .given(history(schedule(0)))
      .when(failAt(0))
      .thenState((state) => expect(nextAttemptAt(state)).toBe(atMinute(2)))
  })

  it("measures each retry from the previous attempt, late or not", () => {
    spec
      .given(history(schedule(0), failAt(0)))
      .when(failAt(7))
      .thenState((state) => expect(nextAttemptAt(state)).toBe(atMinute(17)))
  })

  it("refuses an attempt before it is due", () => {
    spec
      .given(history(schedule(0), failAt(0)))
      .when(failAt(1))
      .thenRejects({ _tag: "NotificationRefused", detail: expect.stringContaining("before it is due") })
  })

  it("marks the notification delivered when the merchant acknowledges it", () => {
    spec
      .given(history(schedule(0), failAt(0)))
      .when(deliverAt(2))
      .thenState((state) => {
        expect(state.status).toBe("DELIVERED")
        expect(nextAttemptAt(state)).toBeUndefined()
      })
  })

  it("makes a round that always fails on time attempt at +0, +2, +12, +22, +82, +202, +562 and +1462 minutes", () => {
    const attempts = failedRound().filter((event) => event._tag === "NotificationAttempted")
    expect(attempts.map((event) => event.at)).toEqual([0, 2, 12, 22, 82, 202, 562, 1462].map(atMinute))
  })

  it("gives up when the eighth attempt of the round fails", () => {
    spec
      .given(history(schedule(0), ...onTimeAttemptMinutes.slice(0, 7).map(failAt)))
      .when(failAt(1462))
      .thenEmits([
        {
          _tag: "NotificationAttempted",
          round: 1,
          attempt: 8,
          at: atMinute(1462),
          outcome: { _tag: "HttpStatus", statusCode: 503 },
        },
        { _tag: "NotificationGivenUp", at: atMinute(1462), reason: { _tag: "AttemptsExhausted" } },
      ])
  })

  it("decides nothing when an attempt is recorded twice", () => {
    spec
      .given(history(schedule(0), failAt(0)))
      .when(failAt(0))
      .thenNothing()
    spec
      .given(history(schedule(0), deliverAt(0)))
      .when(deliverAt(0))
      .thenNothing()
    spec.given(failedRound()).when(failAt(1462)).thenNothing()
  })

  it("refuses any other attempt after delivery or give-up", () => {
    spec
      .given(history(schedule(0), deliverAt(0)))
      .when(deliverAt(3))
      .thenRejects({ _tag: "NotificationRefused" })
    spec
      .given(failedRound())
      .when(failAt(3000))
      .thenRejects({ detail: expect.stringContaining("given up") })
  })

  it("refuses an attempt of a notification never scheduled", () => {
    spec.given([]).when(failAt(0)).thenRejects({ detail: "is not scheduled" })
  })
})

describe("refused notifyUrl", () => {
  const refuseUrl = {
    _tag: "RefuseUrl",
    at: atMinute(0),
    reason: { _tag: "UrlRefused", detail: "10.0.0.7 is a private address" },
  } as const

  it("gives up without an attempt, saying why", () => {
    spec
      .given(history(schedule(0)))
      .when(refuseUrl)
      .thenEmits([{ _tag: "NotificationGivenUp", at: atMinute(0), reason: refuseUrl.reason }])
  })

  it("decides nothing when the refusal is recorded twice", () => {
    spec
      .given(history(schedule(0), refuseUrl))
      .when(refuseUrl)
      .thenNothing()
  })
})

describe("operator resend", () => {
  it("opens a new round of a given-up notification, due at once, with the same notify_id", () => {
    spec
      .given(failedRound())
      .when(resendAt(2000))
      .thenEmits([{ _tag: "NotificationResent", round: 2, at: atMinute(2000), requestedBy: "ops@mizan" }])
    spec
      .given(failedRound())
      .when(resendAt(2000))
      .thenState((state) => {
        expect(state).toMatchObject({ status: "PENDING", round: 2, attemptsInRound: 0, attemptsTotal: 8 })
        expect(nextAttemptAt(state)).toBe(atMinute(2000))
        expect(state.status !== "ABSENT" && state.notification.notifyId).toBe(details.notifyId)
      })
  })

  it("opens a new round of a delivered notification", () => {
    spec
      .given(history(schedule(0), deliverAt(0)))
      .when(resendAt(60))
      .thenState((state) => expect(state.status).toBe("PENDING"))
  })

  it("gives the new round its own eight attempts on the same schedule", () => {
    const resent = history(schedule(0), ...onTimeAttemptMinutes.map(failAt), resendAt(2000))
    spec
      .given(resent)
      .when(failAt(2000))
      .thenState((state) => expect(nextAttemptAt(state)).toBe(atMinute(2002)))
  })

  it("refuses to resend a notification still being delivered", () => {
    spec
      .given(history(schedule(0), failAt(0)))
      .when(resendAt(1))
      .thenRejects({ detail: "is still being delivered" })
  })

  it("decides nothing when the same resend arrives twice", () => {
    const resent = [
      ...failedRound(),
      { _tag: "NotificationResent", round: 2, at: atMinute(2000), requestedBy: "ops@mizan" } as const,
    ]
    spec.given(resent).when(resendAt(2000)).thenNothing()
  })
})
