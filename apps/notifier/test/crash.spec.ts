/**
 * A crash in the middle of deliveries: the running notifier is interrupted
 * with attempts in flight (nothing of it survives but the store), and a new
 * one starts on the same store.
 */
import { it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { describe, expect } from "vitest"
import { notifyIdFor, readNotification } from "../src/index.ts"
import {
  allNotifications,
  announce,
  eventually,
  onTestDay,
  sandboxOptions,
  startMerchant,
  startNotifier,
} from "./harness.ts"

const ordersCount = 40
const deliveriesInFlightMax = 4

describe("crash and restart", () => {
  it.effect("loses no notification and sends none again that was acknowledged and recorded before the crash", () =>
    onTestDay(
      Effect.gen(function* () {
        // A merchant that takes a moment to answer, so that attempts are in flight when the crash comes.
        const endpoint = yield* startMerchant(() => ({ body: "SUCCESS", delayMs: 15 }))
        const first = yield* startNotifier(
          sandboxOptions({ deliveriesInFlightMax, deliveriesInFlightPerEndpointMax: deliveriesInFlightMax }),
        )
        const ids: Array<string> = []
        for (let i = 0; i < ordersCount; i++)
          ids.push(notifyIdFor((yield* announce(`acquiring-M1-K${i}`, endpoint.url())).id))
        const deliveredIds = Effect.gen(function* () {
          const delivered: Array<string> = []
          for (const id of ids) if ((yield* readNotification(id)).status === "DELIVERED") delivered.push(id)
          return delivered
        })
        yield* eventually(
          Effect.map(deliveredIds, (delivered) => delivered.length >= 10),
          "some are delivered before the crash",
        )
        yield* Fiber.interrupt(first)
        const recordedBeforeCrash = new Set(yield* deliveredIds)
        const receivedBeforeRestart = endpoint.received.length
        expect(recordedBeforeCrash.size).toBeLessThan(ordersCount)

        yield* startNotifier(sandboxOptions({ deliveriesInFlightMax }))
        yield* eventually(
          Effect.map(deliveredIds, (delivered) => delivered.length === ordersCount),
          "every notification is delivered after the restart",
        )

        const sentAgain = endpoint.received.slice(receivedBeforeRestart).map((r) => r.notifyId)
        expect(sentAgain.filter((id) => recordedBeforeCrash.has(id))).toEqual([])
        const timesReceived = new Map<string, number>()
        for (const { notifyId } of endpoint.received)
          timesReceived.set(notifyId, (timesReceived.get(notifyId) ?? 0) + 1)
        expect([...timesReceived.keys()].sort()).toEqual([...ids].sort())
        // At least once: only the attempts in flight at the crash may arrive twice.
        const duplicates = [...timesReceived.values()].filter((times) => times > 1)
        expect(duplicates.length).toBeLessThanOrEqual(deliveriesInFlightMax)
        expect(endpoint.received.every((r) => r.verified)).toBe(true)
        // Reading the log again after the crash scheduled nothing twice.
        expect((yield* allNotifications).size).toBe(ordersCount)
      }),
    ),
  )
})
