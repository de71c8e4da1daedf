/**
 * The delivery loop: whenever an attempt is due (on its merchant's time, so a
 * sandbox test clock moves a merchant's retries) and the bounds allow, start
 * it in its own fiber; record every attempt and its outcome as events before
 * the notification may go again. An attempt interrupted by a crash is not
 * recorded, so it is made again after the restart: the one attempt in flight
 * at a crash may reach the merchant twice (at least once), nothing else does.
 */
import { type EventStore, handleCommand, loadAggregate, type StoreError } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { type AttemptOutcome, describeOutcome, Notification } from "@mizan/notification"
import type { MerchantClocks } from "@mizan/test-clock"
import { Clock, Effect, FiberSet, type Latch } from "effect"
import { notificationBody } from "./body.ts"
import { countAttempt } from "./metrics.ts"
import type { NotifierSettings } from "./options.ts"
import type { PendingNotifications, Tracked } from "./pending.ts"
import { type Agents, postNotification } from "./post.ts"
import { checkNotifyUrl, resolveWithSystem } from "./urlPolicy.ts"

export interface DeliveryContext {
  readonly settings: NotifierSettings
  readonly pending: PendingNotifications
  /** Each merchant's time: an attempt is made, recorded and dated on its merchant's time. */
  readonly clocks: MerchantClocks
  readonly agents: Agents
  /** Opened to make the loop look again: a notification arrived, or an attempt ended. */
  readonly wakeUp: Latch.Latch
}

/**
 * How long after its round opened a notification's first attempt may send
 * the order as it was read then. Any later attempt (a retry, or a first one
 * that waited behind the order's earlier notification) reads it again from
 * the store: a person forgotten meanwhile (`mizan-audit forget`) reads
 * `[forgotten]` there, while the copy held here would still carry them in
 * clear to the merchant.
 */
export const heldOrderFreshMs = 1_000

/**
 * The notification to send at `at`: the one held when its round opened
 * just now, else the store's (its personal fields as they stand).
 */
const notificationToSend = (tracked: Tracked, at: Timestamp) => {
  const held = tracked.state
  if (held.attemptsInRound === 0 && at - held.roundStartedAt <= heldOrderFreshMs)
    return Effect.succeed(held.notification)
  return Effect.map(loadAggregate(Notification.aggregate, tracked.streamId), ({ state }) =>
    state.status === "ABSENT" ? held.notification : state.notification,
  )
}

export const makeDelivery = (context: DeliveryContext) => {
  const { settings, pending, clocks, agents, wakeUp } = context
  const resolveHost = settings.resolveHost ?? resolveWithSystem
  const limits = { deliveryTimeoutMs: settings.deliveryTimeoutMs, answerMaxBytes: settings.answerMaxBytes }

  /** What one attempt comes to: the URL is checked first, and a refused one is never fetched. */
  const attempt = Effect.fnUntraced(function* (tracked: Tracked, at: Timestamp) {
    const notification = yield* notificationToSend(tracked, at)
    // The resolver gets the same real-time allowance as the POST itself.
    const verdict = yield* checkNotifyUrl(
      notification.notifyUrl,
      settings.mode,
      resolveHost,
      settings.deliveryTimeoutMs,
    )
    switch (verdict._tag) {
      case "Refused":
        return { _tag: "RefuseUrl", at, reason: { _tag: "UrlRefused", detail: verdict.detail } } as const
      case "Unresolved":
        return { _tag: "RecordAttempt", at, outcome: { _tag: "ConnectionFailed", code: verdict.code } } as const
      case "Allowed": {
        const body = notificationBody(notification, at)
        const outcome: AttemptOutcome = yield* postNotification(verdict, body, settings.sign(body), limits, agents)
        return { _tag: "RecordAttempt", at, outcome } as const
      }
    }
  })

  /** The merchant's time in a log line, for a merchant on a sandbox test clock (the line itself is dated in real time). */
  const merchantTimeOf = (merchantId: string) =>
    clocks.offsetOf(merchantId) === 0 ? {} : { merchantTime: new Date(clocks.nowOf(merchantId)).toISOString() }

  /**
   * One attempt, recorded. It runs to its end once started, even when the
   * notifier is asked to stop: the POST is bounded by the delivery timeout,
   * and an attempt cut short would be made again after the restart, so a
   * graceful stop leaves no attempt unrecorded and posts nothing twice.
   */
  const deliver = (tracked: Tracked) =>
    Effect.gen(function* () {
      const at = clocks.nowOf(tracked.merchantId)
      const { notifyId, merchantId } = tracked.state.notification
      const command: Notification.Command = yield* attempt(tracked, at)
      const result = command._tag === "RefuseUrl" ? "UrlRefused" : command.outcome._tag
      yield* countAttempt(result)
      if (command._tag === "RecordAttempt" && command.outcome._tag !== "Delivered")
        yield* Effect.logWarning("notification attempt failed").pipe(
          Effect.annotateLogs({
            notifyId,
            merchantId,
            attempt: tracked.state.attemptsInRound + 1,
            reason: describeOutcome(command.outcome),
            ...merchantTimeOf(merchantId),
          }),
        )
      // Another writer got there first (a second notifier on the same store, a
      // clock that stepped back): take the store's word for the state.
      const recorded = yield* handleCommand(Notification.aggregate, tracked.streamId, command).pipe(
        Effect.catchTags({
          NotificationRefused: () => loadAggregate(Notification.aggregate, tracked.streamId),
          VersionConflict: () => loadAggregate(Notification.aggregate, tracked.streamId),
        }),
        Effect.provideService(Clock.Clock, clocks.clockOf(tracked.merchantId)),
      )
      pending.finish(tracked, recorded.state, recorded.streamVersion)
      wakeUp.openUnsafe()
      const { state } = recorded
      if (state.status === "GIVEN_UP")
        yield* Effect.logWarning("notification given up").pipe(
          Effect.annotateLogs({
            notifyId: state.notification.notifyId,
            merchantId: state.notification.merchantId,
            reason: state.reason._tag === "UrlRefused" ? state.reason.detail : "attempts exhausted",
            ...merchantTimeOf(merchantId),
          }),
        )
    }).pipe(
      Effect.withSpan("Notifier.attempt", {
        kind: "client",
        attributes: { notifyId: tracked.state.notification.notifyId, merchantId: tracked.merchantId },
      }),
      Effect.uninterruptible,
    )

  /** Runs until interrupted; fails only when the store does. */
  const loop: Effect.Effect<never, StoreError, EventStore> = Effect.gen(function* () {
    const deliveries = yield* FiberSet.make<void, StoreError>()
    const schedule = Effect.gen(function* () {
      while (true) {
        yield* wakeUp.close
        const now = yield* Clock.currentTimeMillis
        for (let next = pending.takeDue(now); next !== undefined; next = pending.takeDue(now))
          yield* FiberSet.run(deliveries, deliver(next))
        const dueAt = pending.nextDueAt()
        if (dueAt === undefined) yield* wakeUp.await
        else if (dueAt > now) yield* Effect.raceFirst(wakeUp.await, Effect.sleep(dueAt - now))
        else yield* Effect.yieldNow
      }
    })
    return yield* Effect.raceFirst(schedule, FiberSet.join(deliveries).pipe(Effect.andThen(Effect.never)))
  }).pipe(Effect.scoped)

  return { loop }
}
