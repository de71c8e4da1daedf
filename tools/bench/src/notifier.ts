/**
 * `npm run bench -- notifier`: notifications delivered per second to a
 * merchant endpoint on loopback, beside the bare RSA-2048 signing rate
 * measured in the same run. Every notification is signed once per
 * attempt, so signing bounds the rate: the ratio says how much of a core's
 * signing rate the notifier turns into acknowledged, recorded deliveries
 * (the rest goes to HTTP, JSON and the two events each notification writes).
 *
 * A run starts a notifier on a store that holds `notificationsPerRun` status
 * changes of as many orders, and ends when every one is recorded delivered.
 * The merchant endpoint runs in a child process, so the notifier's process
 * does the notifier's work only; it answers SUCCESS at once.
 */
import { spawn } from "node:child_process"
import {
  EventStore,
  type EventStoreShape,
  logStart,
  makeMemoryEventStore,
  type RecordedEvent,
} from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { notificationBody, runNotifier } from "@mizan/notifier"
import type { NotificationSource } from "@mizan/order-views"
import { generateKeyPair, sign } from "@mizan/protocol"
import { makeSqliteEventStore } from "@mizan/store-sqlite"
import { Deferred, Effect, Fiber, Option, References, type Scope, Stream } from "effect"
import { compare, describeMachine, formatTable, type RunCounts, type Workload } from "./harness.ts"
import { closeScope, openScoped, removeFile, type TempFile, tempFile } from "./storeSetUp.ts"

const notificationsPerRun = 2_000
const counts: RunCounts = { warmupRuns: 1, measuredRuns: 5 }
const { privateKey } = generateKeyPair()
const signBody = (body: Uint8Array): string => sign(body, privateKey)

/** A merchant endpoint in its own process: answers every POST with SUCCESS. */
const startMerchantProcess = async () => {
  const code = `
    const server = require("node:http").createServer((request, response) => {
      request.resume()
      request.on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("SUCCESS"))
    })
    server.keepAliveTimeout = 60_000
    server.listen(0, "127.0.0.1", () => console.log(server.address().port))`
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] })
  const port = await new Promise<number>((resolve) =>
    child.stdout.once("data", (data) => resolve(Number(String(data)))),
  )
  return { url: `http://127.0.0.1:${port}/notify`, stop: () => child.kill() }
}

const merchant = await startMerchantProcess()

/** An acquiring order of the size the gateway announces (about 400 bytes of JSON). */
const order = (n: number) => ({
  requestTime: 1_795_251_000_000,
  merchantOrderNo: `order-${n}`,
  orderNo: `2026112100${String(n).padStart(6, "0")}`,
  status: "PAID_SUCCESS",
  product: "ONLINE",
  totalAmount: { amount: 125.5, currency: "AED" },
  payeeMid: "M000000042",
  expiredTime: 1_795_258_200_000,
  subject: "Dates, 1 kg",
  paySceneCode: "ONLINE",
  paymentInfo: { payMethod: "CARD", cardInfo: { brand: "VISA", last4: "4242" } },
  revoked: "false",
})

const source: NotificationSource = {
  describe: (event) =>
    Effect.succeed(
      event.type === "OrderPaid"
        ? Option.some({
            merchantId: "M000000042",
            notifyUrl: merchant.url,
            orderKey: "acquireOrder",
            order: order(Number(event.streamId.slice("order-".length))),
            orderingKey: event.streamId,
          })
        : Option.none(),
    ),
}

const fillStore = (store: EventStoreShape) =>
  Effect.forEach(
    Array.from({ length: notificationsPerRun }, (_, n) => n),
    (n) => store.append(`order-${n}`, [{ type: "OrderPaid", schemaVersion: 1, data: {} }], "no_stream"),
    { discard: true },
  )

const isDelivered = (event: RecordedEvent): boolean =>
  event.type === "NotificationAttempted" &&
  (event.data as { readonly outcome?: { readonly _tag?: string } }).outcome?._tag === "Delivered"

/** Runs a notifier on `store` until every notification is recorded delivered. */
const deliverAll = (store: EventStoreShape) =>
  Effect.gen(function* () {
    const allDelivered = yield* Deferred.make<void>()
    let delivered = 0
    const counter = yield* Effect.forkChild(
      store
        .follow(logStart)
        .pipe(
          Stream.runForEach((event) =>
            isDelivered(event) && ++delivered === notificationsPerRun
              ? Deferred.succeed(allDelivered, undefined)
              : Effect.void,
          ),
        ),
    )
    const notifier = yield* Effect.forkChild(runNotifier({ source, sign: signBody, mode: "sandbox" }))
    yield* Deferred.await(allDelivered)
    yield* Fiber.interrupt(notifier)
    yield* Fiber.interrupt(counter)
  }).pipe(Effect.provideService(EventStore, store), Effect.provideService(References.MinimumLogLevel, "Warn"))

const memoryDelivery: Workload<EventStoreShape> = {
  name: "notifier, memory store: notifications delivered",
  operationsPerRun: notificationsPerRun,
  setup: async () => {
    const store = makeMemoryEventStore()
    await Effect.runPromise(fillStore(store))
    return store
  },
  run: (store) => Effect.runPromise(deliverAll(store)),
}

interface SqliteRun extends TempFile {
  readonly scope: Scope.Closeable
  readonly store: EventStoreShape
}

const sqliteDelivery: Workload<SqliteRun> = {
  name: "notifier, SQLite store (synchronous full): notifications delivered",
  operationsPerRun: notificationsPerRun,
  setup: async () => {
    const file = tempFile("mizan-bench-notifier-")
    // FULL, as the figures in tools/bench/README.md were measured (the store's default is now "full-offloaded").
    const { scope, value: store } = await openScoped(makeSqliteEventStore(file.path, { synchronous: "full" }))
    await Effect.runPromise(fillStore(store))
    return { ...file, scope, store }
  },
  run: ({ store }) => Effect.runPromise(deliverAll(store)),
  teardown: async (opened) => {
    await closeScope(opened.scope)
    removeFile(opened)
  },
}

/** The baseline: signing the same bodies, and nothing else. */
const signing: Workload<Uint8Array> = {
  name: "bare RSA-2048 SHA-256 signing (node:crypto)",
  operationsPerRun: notificationsPerRun,
  setup: () =>
    notificationBody(
      {
        notifyId: "a3f1c2d4e5b60718293a4b5c6d7e8f90",
        merchantId: "M000000042",
        notifyUrl: merchant.url,
        orderKey: "acquireOrder",
        order: order(1),
        orderingKey: "order-1",
        sourceEventId: "0d6c9c2e-6b8f-4f57-9d4e-2d7f1c1b0a11",
        sourcePosition: 1n,
      },
      1_795_251_600_000 as Timestamp,
    ),
  run: (body) => {
    for (let i = 0; i < notificationsPerRun; i++) signBody(body)
  },
}

console.log(`Notifier benchmark on ${describeMachine()}\n`)
try {
  const comparisons = [
    await compare(memoryDelivery, signing, { unit: "notifications", counts }),
    await compare(sqliteDelivery, signing, { unit: "notifications", counts }),
  ]
  console.log(formatTable(comparisons))
  console.log(
    `\n${notificationsPerRun} notifications per run, ${counts.measuredRuns} measured runs (medians); the baseline is the same number of signatures.`,
  )
} finally {
  merchant.stop()
}
