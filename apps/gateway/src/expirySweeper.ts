/**
 * Closes orders whose expiredTime has passed, so they read as FAILURE and
 * are announced as such even when nobody asks (issue: "closed by the
 * service, not only on read"). It follows the log for orders created and
 * closed, keeps the open ones' expiry times, and sends `ExpireOrder` when
 * each falls due on its merchant's clock (a sandbox test clock moves it).
 *
 * On start it reads the log from the beginning to find the open orders:
 * one pass over the history, in pages, keeping only a stream id and a time
 * per open order.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import { EventStore, handleCommand, logStart, type RecordedEvent, restartedOnFailure } from "@mizan/eventsourcing"
import type { MerchantClocks } from "@mizan/test-clock"
import { Clock, Effect, Metric, Stream } from "effect"
import { ApiSettings } from "./pipeline/apiSettings.ts"

/** How often open orders are checked, in real time. */
export const expirySweepIntervalMs = 1_000

export const expirySweeps = Metric.counter("mizan_expiry_sweeps_total", {
  description: "Sweeps of the open orders for those past their expiredTime",
  incremental: true,
})

export const ordersExpired = Metric.counter("mizan_orders_expired_total", {
  description: "Orders this process closed because their expiredTime passed",
  incremental: true,
})

interface OpenOrder {
  readonly merchantId: string
  readonly expiredTime: number
}

const track = (open: Map<string, OpenOrder>, clocks: MerchantClocks, event: RecordedEvent): void => {
  // A merchant's test clock moving forward brings its orders' expiry nearer.
  clocks.observe(event)
  if (!event.streamId.startsWith("acquiring-")) return
  if (event.type === "OrderCreated") {
    const data = event.data as { merchantId: string; expiredTime: number }
    open.set(event.streamId, { merchantId: data.merchantId, expiredTime: data.expiredTime })
  } else if (event.type === "OrderPaid" || event.type === "OrderClosed") open.delete(event.streamId)
}

/** Each order expires on its merchant's time (real time, plus the merchant's sandbox offset). */
const sweepDue = Effect.fn("Gateway.sweepDue")(function* (open: Map<string, OpenOrder>, clocks: MerchantClocks) {
  for (const [streamId, order] of open) {
    const now = clocks.nowOf(order.merchantId)
    if (order.expiredTime > now) continue
    yield* handleCommand(AcquiringOrder.aggregate, streamId, {
      _tag: "ExpireOrder",
      merchantId: order.merchantId,
      now,
    }).pipe(
      Effect.provideService(Clock.Clock, clocks.clockOf(order.merchantId)),
      Effect.tap(({ events }) => Metric.update(ordersExpired, events.length === 0 ? 0 : 1)),
      // A refusal means the order is no longer open (paid meanwhile): forget it; the log will say so too.
      // A version conflict means another process's sweep or a request got there first: the same.
      Effect.catchTags({ Rejection: () => Effect.void, VersionConflict: () => Effect.void }),
      Effect.withSpan("Expiry.expireOrder", { attributes: { streamId } }),
    )
    open.delete(streamId)
  }
  yield* Metric.update(expirySweeps, 1)
})

/** Runs until interrupted. */
export const runExpirySweeper = Effect.gen(function* () {
  const store = yield* EventStore
  const { clocks } = yield* ApiSettings
  const open = new Map<string, OpenOrder>()
  let followedUpTo = logStart
  yield* Effect.forkChild(
    // From where it stopped, should the store fail it: every order opened meanwhile is still swept.
    restartedOnFailure(
      "expiry sweep's following of the log",
      Effect.suspend(() =>
        // A page at a time: each commit wakes this follower once, however many events it wrote.
        Stream.runForEachArray(store.follow(followedUpTo), (page) =>
          Effect.sync(() => {
            for (const event of page) {
              track(open, clocks, event)
              followedUpTo = event.globalPosition
            }
          }),
        ),
      ),
    ),
  )
  while (true) {
    yield* Effect.sleep(expirySweepIntervalMs)
    yield* sweepDue(open, clocks).pipe(
      Effect.catchCause((cause) => Effect.logWarning("expiry sweep failed; retrying", cause)),
    )
  }
})
