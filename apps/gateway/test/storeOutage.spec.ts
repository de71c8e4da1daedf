/**
 * The store fails a gateway's background work for a while (PostgreSQL
 * restarting, a failover): the notifier and the expiry sweep start again
 * once the store answers, as the API does, instead of staying stopped until
 * someone restarts the process.
 */
import { EventStore, makeMemoryEventStore, StoreError } from "@mizan/eventsourcing"
import { Notification } from "@mizan/notification"
import { Effect, Layer, Stream } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { placeOrder, placePaidOrder } from "./calls.ts"
import { startGateway, type TestGateway } from "./harness.ts"
import { startMerchantEndpoint, waitUntil } from "./merchantEndpoint.ts"

/**
 * A memory store that fails, while `outage.on`, what the background work
 * writes (notification streams, checkpoints) and its following of the log.
 */
const outage = { on: false }
const storeWithOutage = Layer.sync(EventStore, () => {
  const inner = makeMemoryEventStore()
  const unavailable = () => Effect.fail(new StoreError({ reason: "Unavailable", detail: "the test's outage" }))
  return EventStore.of({
    ...inner,
    append: (streamId, events, expected) =>
      outage.on && Notification.isStream(streamId) ? unavailable() : inner.append(streamId, events, expected),
    storeCheckpoint: (name, position) => (outage.on ? unavailable() : inner.storeCheckpoint(name, position)),
    follow: (after, options) =>
      inner.follow(after, options).pipe(Stream.tap(() => (outage.on ? unavailable() : Effect.void))),
  })
})

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

const notifierStatus = async (gateway: TestGateway) => {
  const ready = (await (await fetch(`${gateway.baseUrl}/ready`)).json()) as { notifier: { status: string } }
  return ready.notifier.status
}

describe("a store outage under the background work", () => {
  it("stops the notifier while the store fails it, then starts it again: what was announced meanwhile is delivered", {
    timeout: 30_000,
  }, async () => {
    const endpoint = await startMerchantEndpoint()
    cleanups.push(endpoint.close)
    const gateway = await startGateway({ storeLayer: storeWithOutage })
    cleanups.push(gateway.close)
    const notifyUrl = { notifyUrl: endpoint.url }
    const said = (merchantOrderNo: string) => endpoint.said.has(`${merchantOrderNo} PAID_SUCCESS`)

    const before = await placePaidOrder(gateway, { extra: notifyUrl })
    await waitUntil(() => said(before), "the notification before the outage")

    outage.on = true
    // Its attempt is made, and cannot be recorded: the notifier stops.
    const during = await placePaidOrder(gateway, { extra: notifyUrl })
    await waitUntil(async () => (await notifierStatus(gateway)) === "stopped", "the notifier stopping")
    outage.on = false

    const after = await placePaidOrder(gateway, { extra: notifyUrl })
    await waitUntil(() => said(after), "the notification after the outage", 15_000)
    expect(said(during)).toBe(true)
    expect(await notifierStatus(gateway)).toBe("following")
  })

  it("keeps the expiry sweep following the log through it: an order placed after it is closed when it expires", {
    timeout: 30_000,
  }, async () => {
    const gateway = await startGateway({ storeLayer: storeWithOutage })
    cleanups.push(gateway.close)
    outage.on = true
    // The sweep follows the log: the event of this payment reaches it while the store fails it.
    await placePaidOrder(gateway)
    outage.on = false

    const merchantOrderNo = await placeOrder(gateway, { extra: { expiredTime: Date.now() + 60_000 } })
    await gateway.advanceClock(2)
    // Nobody reads the order: only the sweep can close it.
    const types = async () =>
      (await gateway.allEvents())
        .filter((event) => event.streamId.startsWith("acquiring-") && event.streamId.endsWith(`-M1-${merchantOrderNo}`))
        .map((event) => event.type)
    await waitUntil(async () => (await types()).includes("OrderClosed"), "the sweep closing the order", 15_000)
  })
})
