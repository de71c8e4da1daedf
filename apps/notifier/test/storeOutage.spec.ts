/**
 * The store fails the notifier for a while (PostgreSQL restarting, a
 * failover): it starts again once the store answers, in whichever process
 * runs it (`main.ts run` and the gateway both run `keepNotifierRunning`),
 * rather than stay stopped until someone restarts the process.
 */
import { it } from "@effect/vitest"
import {
  EventStore,
  ExclusiveWork,
  inProcessExclusiveWork,
  makeMemoryEventStore,
  StoreError,
} from "@mizan/eventsourcing"
import { Notification } from "@mizan/notification"
import { Effect, References } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import { keepNotifierRunning, notifyIdFor, readNotification } from "../src/index.ts"
import { ack, announce, eventually, onTestDay, sandboxOptions, startMerchant } from "./harness.ts"

/** A memory store that fails the first `failures` appends to notification streams, as a store that went away does. */
const storeFailingNotifications = (failures: number) => {
  const inner = makeMemoryEventStore()
  const failed = { count: 0 }
  const store = EventStore.of({
    ...inner,
    append: (streamId, events, expected) =>
      Effect.suspend(() => {
        if (!Notification.isStream(streamId) || failed.count === failures)
          return inner.append(streamId, events, expected)
        failed.count++
        return Effect.fail(new StoreError({ reason: "Unavailable", detail: "the test's outage" }))
      }),
  })
  return { store, failed }
}

describe("a store outage under the notifier", () => {
  it.effect("stops it only until the store answers: what was announced meanwhile is delivered, once", () => {
    const { store, failed } = storeFailingNotifications(2)
    return onTestDay(
      Effect.gen(function* () {
        const endpoint = yield* startMerchant(() => ack)
        yield* Effect.forkScoped(keepNotifierRunning(sandboxOptions()))
        const notifyId = notifyIdFor((yield* announce("acquiring-M1-OUTAGE-1", endpoint.url())).id)
        // Each start after a failure waits on the clock (a second, then two): moved here a second at a time.
        yield* eventually(
          Effect.andThen(
            TestClock.adjust("1 second"),
            Effect.map(readNotification(notifyId), (notification) => notification.status === "DELIVERED"),
          ),
          "the notification delivered after the outage",
        )
        expect(failed.count).toBe(2)
        expect(endpoint.received.map((received) => received.notifyId)).toEqual([notifyId])
      }).pipe(
        Effect.provideService(EventStore, store),
        Effect.provideService(ExclusiveWork, inProcessExclusiveWork()),
        Effect.provideService(References.MinimumLogLevel, "None"),
      ),
    )
  })
})
