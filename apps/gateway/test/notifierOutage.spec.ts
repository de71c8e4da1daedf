/**
 * The store fails the notifier for a while (PostgreSQL restarting, a
 * failover): the notifier of a gateway process starts again once the store
 * answers, as the API does, instead of staying stopped until someone
 * restarts the process.
 */
import { EventStore, makeMemoryEventStore, StoreError } from "@mizan/eventsourcing"
import { Notification } from "@mizan/notification"
import { Effect, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { placePaidOrder } from "./calls.ts"
import { startGateway, type TestGateway } from "./harness.ts"
import { startMerchantEndpoint, waitUntil } from "./merchantEndpoint.ts"

/** A memory store whose notification streams and checkpoints fail while `outage.on`: what the notifier writes. */
const outage = { on: false }
const storeWithOutage = Layer.sync(EventStore, () => {
  const inner = makeMemoryEventStore()
  const unavailable = () => Effect.fail(new StoreError({ reason: "Unavailable", detail: "the test's outage" }))
  return EventStore.of({
    ...inner,
    append: (streamId, events, expected) =>
      outage.on && Notification.isStream(streamId) ? unavailable() : inner.append(streamId, events, expected),
    storeCheckpoint: (name, position) => (outage.on ? unavailable() : inner.storeCheckpoint(name, position)),
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

describe("a store outage under the notifier", () => {
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
})
