/**
 * Closes orders whose expiredTime has passed, so they read as FAILURE and
 * are announced as such even when nobody asks (issue: "closed by the
 * service, not only on read"). It follows the log for orders created and
 * closed, keeps the open ones' expiry times, and sends `ExpireOrder` when
 * each falls due on the service's clock (the sandbox clock moves it).
 *
 * On start it reads the log from the beginning to find the open orders:
 * one pass over the history, in pages, keeping only a stream id and a time
 * per open order.
 */

import { acquiringOrder } from "@mizan/acquiring"
import { EventStore, handleCommand, logStart, type RecordedEvent } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { Clock, Effect, Stream } from "effect"

/** How often open orders are checked, on the service's clock. */
export const expirySweepIntervalMs = 1_000

interface OpenOrder {
  readonly merchantId: string
  readonly expiredTime: number
}

const track = (open: Map<string, OpenOrder>, event: RecordedEvent): void => {
  if (!event.streamId.startsWith("acquiring-")) return
  if (event.type === "OrderCreated") {
    const data = event.data as { merchantId: string; expiredTime: number }
    open.set(event.streamId, { merchantId: data.merchantId, expiredTime: data.expiredTime })
  } else if (event.type === "OrderPaid" || event.type === "OrderClosed") open.delete(event.streamId)
}

const sweepDue = (open: Map<string, OpenOrder>) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    for (const [streamId, order] of open) {
      if (order.expiredTime > now) continue
      yield* handleCommand(acquiringOrder, streamId, {
        _tag: "ExpireOrder",
        merchantId: order.merchantId,
        now: now as Timestamp,
      }).pipe(
        // A refusal means the order is no longer open (paid meanwhile): forget it; the log will say so too.
        Effect.catchTag("Rejection", () => Effect.void),
      )
      open.delete(streamId)
    }
  })

/** Runs until interrupted. */
export const runExpirySweeper = Effect.gen(function* () {
  const store = yield* EventStore
  const open = new Map<string, OpenOrder>()
  yield* Effect.forkChild(Stream.runForEach(store.follow(logStart), (event) => Effect.sync(() => track(open, event))))
  while (true) {
    yield* Effect.sleep(expirySweepIntervalMs)
    yield* sweepDue(open).pipe(Effect.catchCause((cause) => Effect.logWarning("expiry sweep failed; retrying", cause)))
  }
})
