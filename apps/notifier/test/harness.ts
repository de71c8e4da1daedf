/**
 * Test harness: a real merchant endpoint on loopback that verifies every
 * signature with the service's public key, a fake notification source over
 * test events, and helpers to drive and observe a notifier.
 */

import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { EventStore, layerMemory, type RecordedEvent } from "@mizan/eventsourcing"
import { readWholeLog } from "@mizan/eventsourcing/testing"
import { verifyNotification } from "@mizan/merchant-client"
import { Notification } from "@mizan/notification"
import { generateKeyPair, sign } from "@mizan/protocol"
import { Effect, References, Result, type Scope } from "effect"
import { TestClock } from "effect/testing"
import { type NotifierOptions, runNotifier } from "../src/index.ts"
import { notificationSource, statusChangedType } from "./testSource.ts"

export const serviceKeys = generateKeyPair()

export const signWithServiceKey = (body: Uint8Array): string => sign(body, serviceKeys.privateKey)

/** What the merchant endpoint received: the parsed body, and whether the merchant client accepted it. */
export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly raw: string
  readonly body: Record<string, unknown>
  readonly notifyId: string
  /** The merchant client's `verifyNotification` accepted it: the signature holds and the body decodes. */
  readonly verified: boolean
  /** Real time of arrival. */
  readonly arrivedAtMs: number
}

/** How the endpoint answers: a status and a body, or no answer at all. */
export type Answer = { readonly status?: number; readonly body: string; readonly delayMs?: number } | "hang"

export const ack: Answer = { body: '{"response":"SUCCESS"}' }

export interface Merchant {
  readonly url: (path?: string) => string
  readonly port: number
  readonly received: Array<Received>
  readonly close: () => Promise<void>
}

/**
 * A merchant endpoint on 127.0.0.1 for as long as the test's scope lasts. `answer` decides each reply from what
 * arrived (and how often that notify_id did).
 */
export const startMerchant = (answer: (received: Received, seenBefore: number) => Answer) =>
  Effect.acquireRelease(
    Effect.promise(() => listen(answer)),
    (merchant) => Effect.promise(() => merchant.close()),
  )

/** A URL where nothing listens: a merchant's, closed at once. */
export const deadMerchantUrl = Effect.scoped(
  Effect.map(
    startMerchant(() => ack),
    (merchant) => merchant.url(),
  ),
)

const listen = async (answer: (received: Received, seenBefore: number) => Answer): Promise<Merchant> => {
  const received: Array<Received> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const bytes = Buffer.concat(chunks)
      const raw = bytes.toString("utf8")
      const body = JSON.parse(raw) as Record<string, unknown>
      const notifyId = String(body.notify_id)
      const arrival: Received = {
        path: request.url ?? "/",
        headers: request.headers,
        raw,
        body,
        notifyId,
        verified: Result.isSuccess(verifyNotification(serviceKeys.publicKey, request.headers, bytes)),
        arrivedAtMs: Date.now(),
      }
      const seenBefore = received.filter((r) => r.notifyId === notifyId).length
      received.push(arrival)
      const reply = answer(arrival, seenBefore)
      if (reply === "hang") return
      const send = () => response.writeHead(reply.status ?? 200, { "content-type": "text/plain" }).end(reply.body)
      if (reply.delayMs === undefined) send()
      else setTimeout(send, reply.delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: (path = "/notify") => `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

let orderCounter = 0

/** An acquiring order in the get-order shape, as the gateway would announce it. */
const acquireOrder = (merchantOrderNo: string, overrides: Record<string, string | number>) => ({
  requestTime: 1_795_251_000_000,
  merchantOrderNo,
  orderNo: `2026112100${String(++orderCounter).padStart(6, "0")}`,
  status: "PAID_SUCCESS",
  product: "ONLINE",
  totalAmount: { amount: 10.5, currency: "AED" },
  payeeMid: "M100000001",
  expiredTime: 1_795_258_200_000,
  subject: "Dates, 1 kg",
  paySceneCode: "ONLINE",
  revoked: "false",
  ...overrides,
})

/** Records a status change of an order in its stream; answers the recorded event. */
export const announce = (
  orderStreamId: string,
  notifyUrl: string,
  order: Record<string, string | number> = {},
  merchantId = "M100000001",
) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const data = {
      merchantId,
      notifyUrl,
      orderKey: "acquireOrder",
      order: acquireOrder(orderStreamId, order),
    }
    const { records } = yield* store.append(orderStreamId, [{ type: statusChangedType, schemaVersion: 1, data }], "any")
    return records[0]!
  })

/** Something else happening in the log, that announces nothing. */
export const unrelatedEvent = (streamId: string) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    return yield* store.append(streamId, [{ type: "SomethingElse", schemaVersion: 1, data: {} }], "any")
  })

/** The decoded events of a notification. */
export const notificationEvents = (notifyId: string) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const records = yield* store.readStream(Notification.streamId(notifyId))
    return records.map((record): Notification.Event => Result.getOrThrow(Notification.aggregate.codec.decode(record)))
  })

export const attemptsOf = (notifyId: string) =>
  Effect.map(notificationEvents(notifyId), (events) => events.filter((e) => e._tag === "NotificationAttempted"))

/** Every notification stream in the store, with its events. */
export const allNotifications = Effect.gen(function* () {
  const streams = new Map<string, Array<RecordedEvent>>()
  for (const record of yield* readWholeLog(yield* EventStore))
    if (record.streamId.startsWith("notification-"))
      streams.set(record.streamId, [...(streams.get(record.streamId) ?? []), record])
  return streams
})

/**
 * Waits in real time. The notifier POSTs to a real HTTP server and its follower wakes on a setTimeout: a request
 * that should not have gone out arrives in real time, so a test that checks for none gives it real time to arrive.
 */
export const realSleep = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

/**
 * Polls `check` in real time until it answers true, failing the test after `timeoutMs`: what it waits for crosses a
 * real HTTP exchange (or a child process), which no TestClock moves.
 */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>, what: string, timeoutMs = 5_000, pollMs = 10) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    while (!(yield* check)) {
      if (Date.now() > deadline) return yield* Effect.die(new Error(`timed out waiting until ${what}`))
      yield* realSleep(pollMs)
    }
  })

/**
 * A test program on a fresh memory store, logging only errors, with it.effect's TestClock set to a working day:
 * the notifier's retries wait on that clock, so no retry comes before the test moves it.
 */
export const onTestDay = <A, E>(program: Effect.Effect<A, E, EventStore | Scope.Scope>) =>
  Effect.andThen(TestClock.setTime(testClockStartMs), program).pipe(
    Effect.provideService(References.MinimumLogLevel, "Error"),
    Effect.provide(layerMemory),
  )

/** 2026-11-21 09:00:00 UTC. */
export const testClockStartMs = Date.UTC(2026, 10, 21, 9, 0, 0)

export const sandboxOptions = (overrides: Partial<NotifierOptions> = {}): NotifierOptions => ({
  source: notificationSource,
  sign: signWithServiceKey,
  mode: "sandbox",
  deliveryTimeoutMs: 2_000,
  ...overrides,
})

/** Starts a notifier in the test's scope; interrupting the fiber is a crash. */
export const startNotifier = (options: NotifierOptions) => Effect.forkScoped(runNotifier(options))
