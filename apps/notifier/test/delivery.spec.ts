import { it } from "@effect/vitest"
import { formatCompactUtc, type Timestamp } from "@mizan/kernel"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { notifyIdFor } from "../src/index.ts"
import {
  type Answer,
  ack,
  announce,
  attemptsOf,
  deadMerchantUrl,
  eventually,
  notificationEvents,
  onTestDay,
  sandboxOptions,
  startMerchant,
  startNotifier,
} from "./harness.ts"

describe("delivery", () => {
  it.effect("POSTs a signed JSON notification carrying the order under its key, and records it delivered", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => ack)
        yield* startNotifier(sandboxOptions())
        const event = yield* announce("acquiring-M1-ORD-1", endpoint.url(), { status: "PAID_SUCCESS" })
        const notifyId = notifyIdFor(event.id)
        yield* eventually(
          Effect.map(notificationEvents(notifyId), (events) => events.some((e) => e._tag === "NotificationAttempted")),
          "the attempt is recorded",
        )
        expect(endpoint.received).toHaveLength(1)
        const [received] = endpoint.received
        expect(received?.verified).toBe(true)
        expect(received?.headers["content-type"]).toBe("application/json")
        expect(Object.keys(received?.body ?? {})).toEqual([
          "notify_id",
          "notify_timestamp",
          "notify_time",
          "_input_charset",
          "acquireOrder",
        ])
        expect(received?.body).toMatchObject({
          notify_id: notifyId,
          _input_charset: "UTF-8",
          acquireOrder: { merchantOrderNo: "acquiring-M1-ORD-1", status: "PAID_SUCCESS" },
        })
        expect(received?.body.notify_time).toBe(formatCompactUtc(received?.body.notify_timestamp as Timestamp))
        const attempts = yield* attemptsOf(notifyId)
        expect(attempts).toMatchObject([{ attempt: 1, outcome: { _tag: "Delivered", statusCode: 200 } }])
        expect(attempts[0]?.at).toBe(received?.body.notify_timestamp)
      }),
    ),
  )
})

describe("announcements", () => {
  it.effect("schedules nothing for a malformed announcement, and goes on with the next", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => ack)
        yield* startNotifier(sandboxOptions())
        const malformed = yield* announce("acquiring-X-1", endpoint.url(), {}, "")
        const next = yield* announce("acquiring-M1-2", endpoint.url())
        yield* eventually(
          Effect.map(attemptsOf(notifyIdFor(next.id)), (a) => a.length === 1),
          "the next is delivered",
        )
        expect(yield* notificationEvents(notifyIdFor(malformed.id))).toEqual([])
        expect(endpoint.received.map((r) => r.notifyId)).toEqual([notifyIdFor(next.id)])
      }),
    ),
  )
})

/** Answers by path, so one endpoint can play many merchants. */
const answersByPath = (answers: Record<string, Answer>) => (received: { path: string }) =>
  answers[received.path] ?? { status: 404, body: "" }

describe("acknowledgement", () => {
  const acknowledgements: Record<string, Answer> = {
    "/json-upper": { body: '{"response":"SUCCESS"}' },
    "/json-lower": { body: '{"response":"success"}' },
    "/json-odd": { body: '{"response":"sUcCeSs"}' },
    "/text-upper": { body: "SUCCESS" },
    "/text-lower": { body: "success" },
    "/text-odd-with-newline": { body: "SuccesS\n" },
    "/created": { status: 201, body: "SUCCESS" },
  }
  const failures: Record<string, [Answer, object]> = {
    "/server-error-saying-success": [
      { status: 500, body: "SUCCESS" },
      { _tag: "HttpStatus", statusCode: 500, answerStart: "SUCCESS" },
    ],
    "/redirect": [
      { status: 302, body: "" },
      { _tag: "HttpStatus", statusCode: 302 },
    ],
    "/fail-word": [{ body: "FAIL" }, { _tag: "BadAnswer", statusCode: 200, answerStart: "FAIL" }],
    "/json-fail": [
      { body: '{"response":"FAIL"}' },
      { _tag: "BadAnswer", statusCode: 200, answerStart: '{"response":"FAIL"}' },
    ],
    "/other-field": [
      { body: '{"result":"SUCCESS"}' },
      { _tag: "BadAnswer", statusCode: 200, answerStart: '{"result":"SUCCESS"}' },
    ],
    "/more-than-the-word": [{ body: "SUCCESS!" }, { _tag: "BadAnswer", statusCode: 200, answerStart: "SUCCESS!" }],
    "/empty": [{ body: "" }, { _tag: "BadAnswer", statusCode: 200 }],
    // Only the first 64 characters of an answer are kept, controls written as spaces.
    "/too-long": [
      { body: "SUCCESS\u0007".padEnd(5_000, "x") },
      { _tag: "BadAnswer", statusCode: 200, answerStart: "SUCCESS ".padEnd(64, "x") },
    ],
  }

  it.effect(
    "counts SUCCESS as plain text or as the response field, in any letter case, with a 2xx status, as delivered",
    () =>
      onTestDay(
        Effect.gen(function* () {
          const endpoint = yield* startMerchant(answersByPath(acknowledgements))
          yield* startNotifier(sandboxOptions())
          const ids = new Map<string, string>()
          for (const path of Object.keys(acknowledgements))
            ids.set(path, notifyIdFor((yield* announce(`acquiring-M1${path}`, endpoint.url(path))).id))
          for (const [path, notifyId] of ids) {
            yield* eventually(
              Effect.map(attemptsOf(notifyId), (a) => a.length === 1),
              `${path} attempted`,
            )
            expect((yield* attemptsOf(notifyId))[0]?.outcome, path).toMatchObject({ _tag: "Delivered" })
          }
          expect(endpoint.received.every((r) => r.verified)).toBe(true)
        }),
      ),
  )

  it.effect("counts anything else as a failed attempt, saying why", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(
          answersByPath(Object.fromEntries(Object.entries(failures).map(([path, [answer]]) => [path, answer]))),
        )
        yield* startNotifier(sandboxOptions())
        const ids = new Map<string, string>()
        for (const path of Object.keys(failures))
          ids.set(path, notifyIdFor((yield* announce(`acquiring-M1${path}`, endpoint.url(path))).id))
        for (const [path, notifyId] of ids) {
          yield* eventually(
            Effect.map(attemptsOf(notifyId), (a) => a.length === 1),
            `${path} attempted`,
          )
          expect((yield* attemptsOf(notifyId))[0]?.outcome, path).toEqual(failures[path]?.[1])
        }
      }),
    ),
  )
})

describe("failed connections", () => {
  it.effect("records an answer that does not come within deliveryTimeoutMs as a timeout", () =>
    onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => "hang")
        yield* startNotifier(sandboxOptions({ deliveryTimeoutMs: 300 }))
        // The delivery timeout is a Node timer around the real POST, so the test waits its 300 ms in real time.
        const started = Date.now()
        const notifyId = notifyIdFor((yield* announce("acquiring-M1-T", endpoint.url())).id)
        yield* eventually(
          Effect.map(attemptsOf(notifyId), (a) => a.length === 1),
          "the attempt times out",
        )
        expect(Date.now() - started).toBeGreaterThanOrEqual(300)
        expect((yield* attemptsOf(notifyId))[0]?.outcome).toEqual({ _tag: "Timeout", afterMs: 300 })
      }),
    ),
  )

  it.effect("records a refused connection as a failed attempt with its error code", () =>
    onTestDay(
      Effect.gen(function* () {
        const deadUrl = yield* deadMerchantUrl
        yield* startNotifier(sandboxOptions())
        const notifyId = notifyIdFor((yield* announce("acquiring-M1-C", deadUrl)).id)
        yield* eventually(
          Effect.map(attemptsOf(notifyId), (a) => a.length === 1),
          "the attempt fails",
        )
        expect((yield* attemptsOf(notifyId))[0]?.outcome).toEqual({ _tag: "ConnectionFailed", code: "ECONNREFUSED" })
      }),
    ),
  )
})

describe("concurrency", () => {
  it.effect("delivers to a live merchant while a dead endpoint holds its own attempts until they time out", () =>
    onTestDay(
      Effect.gen(function* () {
        const dead = yield* startMerchant(() => "hang")
        const live = yield* startMerchant(() => ack)
        yield* startNotifier(
          sandboxOptions({ deliveryTimeoutMs: 3_000, deliveriesInFlightMax: 4, deliveriesInFlightPerEndpointMax: 2 }),
        )
        // Real time: the dead endpoint's POSTs hang on a real socket, and the live one must be served well before
        // their (Node-timed) 3 s run out.
        const started = Date.now()
        const deadIds: Array<string> = []
        for (let i = 0; i < 6; i++) deadIds.push(notifyIdFor((yield* announce(`acquiring-M2-${i}`, dead.url())).id))
        const liveId = notifyIdFor((yield* announce("acquiring-M3-1", live.url(), {}, "M3")).id)
        yield* eventually(
          Effect.map(attemptsOf(liveId), (a) => a.length === 1),
          "the live merchant is notified",
          2_000,
        )
        expect(Date.now() - started).toBeLessThan(2_000)
        expect(dead.received).toHaveLength(2)
        for (const id of deadIds) expect(yield* attemptsOf(id)).toEqual([])
      }),
    ),
  )
})
