/**
 * The retry schedule, per-order ordering, restarts and resends, on a test
 * clock: the merchant endpoint is real, time is not.
 */
import { it } from "@effect/vitest"
import { EventStore, makeMemoryEventStore, type RecordedEvent } from "@mizan/eventsourcing"
import { minuteMs } from "@mizan/kernel"
import { Effect, Fiber, Layer, References } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import { notifyIdFor, readNotification, resendNotification } from "../src/index.ts"
import {
  ack,
  announce,
  attemptsOf,
  eventually,
  type Merchant,
  notificationEvents,
  onTestDay,
  realSleep,
  sandboxOptions,
  startMerchant,
  startNotifier,
  testClockStartMs,
} from "./harness.ts"

const failure = { status: 503, body: "busy" } as const
const atMinute = (minute: number) => testClockStartMs + minute * minuteMs
const minuteOf = (at: number) => (at - testClockStartMs) / minuteMs
const scheduleMinutes = [0, 2, 12, 22, 82, 202, 562, 1462]

const attemptCount = (notifyId: string, count: number) =>
  eventually(
    Effect.map(attemptsOf(notifyId), (attempts) => attempts.length >= count),
    `${notifyId} has ${count} attempts`,
  )

/**
 * Drives a round that always fails through its eight attempts: a minute
 * before each retry is due nothing is sent; at the minute, it is.
 */
const driveFailingRound = (notifyId: string, endpoint: Merchant, roundStartMinute = 0) =>
  Effect.gen(function* () {
    const attemptsBefore = (yield* attemptsOf(notifyId)).length
    const sentBefore = endpoint.received.length
    yield* attemptCount(notifyId, attemptsBefore + 1)
    for (let k = 1; k < scheduleMinutes.length; k++) {
      const dueMinute = roundStartMinute + scheduleMinutes[k]!
      yield* TestClock.setTime(atMinute(dueMinute - 1))
      yield* realSleep(20)
      expect(endpoint.received.length - sentBefore, `nothing is sent before minute ${dueMinute}`).toBe(k)
      yield* TestClock.setTime(atMinute(dueMinute))
      yield* attemptCount(notifyId, attemptsBefore + k + 1)
    }
  })

describe("retry schedule", () => {
  it.effect("attempts at exactly +0, +2, +12, +22, +82, +202, +562 and +1462 minutes, then gives up", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => failure)
        yield* startNotifier(sandboxOptions())
        const notifyId = notifyIdFor((yield* announce("acquiring-M1-ORD-7", endpoint.url())).id)
        yield* driveFailingRound(notifyId, endpoint)
        const events = yield* notificationEvents(notifyId)
        const attempts = events.filter((e) => e._tag === "NotificationAttempted")
        expect(attempts.map((a) => minuteOf(a.at))).toEqual(scheduleMinutes)
        expect(attempts.every((a) => a.outcome._tag === "HttpStatus" && a.outcome.statusCode === 503)).toBe(true)
        expect(events.at(-1)).toMatchObject({ _tag: "NotificationGivenUp", reason: { _tag: "AttemptsExhausted" } })
        expect(endpoint.received.map((r) => minuteOf(r.body.notify_timestamp as number))).toEqual(scheduleMinutes)
        expect(new Set(endpoint.received.map((r) => r.notifyId))).toEqual(new Set([notifyId]))
        yield* TestClock.setTime(atMinute(5_000))
        yield* realSleep(30)
        expect(endpoint.received).toHaveLength(8)
      }),
    ),
  )
})

describe("per-order ordering", () => {
  it.effect("sends an order's status changes in order, a later one waiting until the earlier is delivered", () =>
    onTestDay(
      Effect.gen(function* () {
        // The first attempt of the order's first notification fails; the others are acknowledged at once.
        const endpoint = yield* startMerchant((received, seenBefore) =>
          (received.body.acquireOrder as { status: string }).status === "CREATED" && seenBefore === 0 ? failure : ack,
        )
        yield* startNotifier(sandboxOptions())
        const first = yield* announce("acquiring-M1-A", endpoint.url(), { status: "CREATED" })
        const second = yield* announce("acquiring-M1-A", endpoint.url(), { status: "PAID_SUCCESS" })
        const third = yield* announce("acquiring-M1-A", endpoint.url(), { status: "SETTLED" })
        const other = yield* announce("acquiring-M1-B", endpoint.url(), { status: "PAID_SUCCESS" })
        const [a1, a2, a3, b] = [first, second, third, other].map((event) => notifyIdFor(event.id)) as [
          string,
          string,
          string,
          string,
        ]
        yield* attemptCount(a1, 1)
        yield* attemptCount(b, 1)
        yield* realSleep(50)
        expect(endpoint.received.map((r) => r.notifyId)).toEqual([a1, b])
        yield* TestClock.setTime(atMinute(2))
        yield* attemptCount(a3, 1)
        expect(endpoint.received.map((r) => r.notifyId)).toEqual([a1, b, a1, a2, a3])
        const secondAttempts = yield* attemptsOf(a2)
        expect(secondAttempts.map((a) => [minuteOf(a.at), a.outcome._tag])).toEqual([[2, "Delivered"]])
      }),
    ),
  )
})

describe("restart", () => {
  it.effect("resumes the schedule where it was: the retry of a failed attempt is still due 2 minutes after it", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => failure)
        const first = yield* startNotifier(sandboxOptions())
        const notifyId = notifyIdFor((yield* announce("acquiring-M1-R", endpoint.url())).id)
        yield* attemptCount(notifyId, 1)
        yield* Fiber.interrupt(first)
        yield* TestClock.setTime(atMinute(1))
        yield* startNotifier(sandboxOptions())
        yield* realSleep(50)
        expect(endpoint.received).toHaveLength(1)
        yield* TestClock.setTime(atMinute(2))
        yield* attemptCount(notifyId, 2)
        expect((yield* attemptsOf(notifyId)).map((a) => minuteOf(a.at))).toEqual([0, 2])
      }),
    ),
  )
})

describe("operator resend", () => {
  it.effect("sends a given-up notification again, with the same notify_id, in a new round", () =>
    onTestDay(
      Effect.gen(function* () {
        let merchantUp = false
        const endpoint = yield* startMerchant(() => (merchantUp ? ack : failure))
        yield* startNotifier(sandboxOptions())
        const notifyId = notifyIdFor((yield* announce("acquiring-M1-G", endpoint.url())).id)
        yield* driveFailingRound(notifyId, endpoint)
        expect(yield* readNotification(notifyId)).toMatchObject({ status: "GIVEN_UP" })
        merchantUp = true
        yield* TestClock.setTime(atMinute(2_000))
        const resent = yield* resendNotification(notifyId, "ops@mizan")
        expect(resent).toMatchObject({ status: "PENDING", round: 2 })
        yield* attemptCount(notifyId, 9)
        expect(yield* readNotification(notifyId)).toMatchObject({ status: "DELIVERED", round: 2, attemptsTotal: 9 })
        expect(endpoint.received).toHaveLength(9)
        expect(endpoint.received.at(-1)).toMatchObject({ notifyId, verified: true })
        expect(minuteOf(endpoint.received.at(-1)?.body.notify_timestamp as number)).toBe(2_000)
      }),
    ),
  )

  it.effect("refuses to resend a notification still being delivered, or one that does not exist", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => failure)
        yield* startNotifier(sandboxOptions())
        const notifyId = notifyIdFor((yield* announce("acquiring-M1-P", endpoint.url())).id)
        yield* attemptCount(notifyId, 1)
        const stillPending = yield* Effect.flip(resendNotification(notifyId, "ops@mizan"))
        expect(stillPending).toMatchObject({
          _tag: "NotificationRefused",
          notifyId,
          detail: "is still being delivered",
        })
        const unknown = yield* Effect.flip(resendNotification("0".repeat(32), "ops@mizan"))
        expect(unknown).toMatchObject({ _tag: "NotificationRefused", detail: "is not scheduled" })
        const nameless = yield* Effect.flip(resendNotification(notifyId, "  "))
        expect(nameless).toMatchObject({ _tag: "NotificationRefused" })
      }),
    ),
  )
})

/**
 * A store that reads a person's name as `[forgotten]` in every stream read
 * once `forgotten.done` is set: what the sealed store does after
 * `mizan-audit forget` destroys the person's data key.
 */
const forgettingStore = (name: string, forgotten: { done: boolean }) =>
  Layer.sync(EventStore, () => {
    const store = makeMemoryEventStore()
    const placeholder = (record: RecordedEvent): RecordedEvent => ({
      ...record,
      data: JSON.parse(JSON.stringify(record.data).replaceAll(JSON.stringify(name), '"[forgotten]"')),
    })
    return {
      ...store,
      readStream: (streamId, options) =>
        Effect.map(store.readStream(streamId, options), (records) =>
          forgotten.done ? records.map(placeholder) : records,
        ),
    }
  })

describe("a person forgotten while a notification waits", () => {
  const name = "Huda Al Mansoori"
  const subjectsSent = (endpoint: Merchant) =>
    endpoint.received.map((r) => [r.notifyId, (r.body.acquireOrder as { subject: string }).subject])

  it.effect(
    "a retry, and a first attempt that waited behind the order's earlier notification, send what the store reads now",
    () => {
      const forgotten = { done: false }
      return Effect.gen(function* () {
        yield* TestClock.setTime(testClockStartMs)
        // The first attempt of the order's first notification fails, so the second waits behind it.
        const endpoint = yield* startMerchant((received, seenBefore) =>
          (received.body.acquireOrder as { status: string }).status === "CREATED" && seenBefore === 0 ? failure : ack,
        )
        yield* startNotifier(sandboxOptions())
        const first = notifyIdFor(
          (yield* announce("acquiring-M1-H", endpoint.url(), { status: "CREATED", subject: name })).id,
        )
        const second = notifyIdFor(
          (yield* announce("acquiring-M1-H", endpoint.url(), { status: "PAID_SUCCESS", subject: name })).id,
        )
        yield* attemptCount(first, 1)
        expect(subjectsSent(endpoint)).toEqual([[first, name]])
        forgotten.done = true
        yield* TestClock.setTime(atMinute(2))
        yield* attemptCount(second, 1)
        expect(subjectsSent(endpoint)).toEqual([
          [first, name],
          [first, "[forgotten]"],
          [second, "[forgotten]"],
        ])
      }).pipe(
        Effect.provideService(References.MinimumLogLevel, "Error"),
        Effect.provide(forgettingStore(name, forgotten)),
      )
    },
  )
})
