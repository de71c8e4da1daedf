import {
  type EventStore,
  heldExclusively,
  restartedOnFailure,
  type StoreError,
  type VersionConflict,
} from "@mizan/eventsourcing"
import { MerchantClocks } from "@mizan/test-clock"
import { Clock, Effect, Latch } from "effect"
import { makeDelivery } from "./delivery.ts"
import { makeIntake } from "./intake.ts"
import { reportPending } from "./metrics.ts"
import { type NotifierOptions, notifierSettings } from "./options.ts"
import { PendingNotifications } from "./pending.ts"
import { makeAgents } from "./post.ts"
import { NotifierProgress } from "./progress.ts"

/**
 * Runs the notifier until interrupted: rebuilds the pending notifications
 * from the store, then follows the global log and delivers what is due. The
 * gateway runs it inside its own process, `main.ts` as a process of its
 * own, both through `keepNotifierRunning`. It fails only when the store
 * does: everything it knows is in the store, so running it again resumes.
 */
export const runNotifier = (
  options: NotifierOptions,
): Effect.Effect<never, StoreError | VersionConflict, EventStore> => {
  const progress = options.progress ?? new NotifierProgress()
  return Effect.gen(function* () {
    const settings = notifierSettings(options)
    const agents = yield* Effect.acquireRelease(
      Effect.sync(() => makeAgents(settings.deliveriesInFlightPerEndpointMax, settings.deliveriesInFlightMax)),
      (agents) => Effect.sync(agents.destroy),
    )
    const clocks = settings.clocks ?? new MerchantClocks(yield* Clock.Clock)
    const pending = new PendingNotifications(settings, (merchantId) => clocks.offsetOf(merchantId))
    const wakeUp = yield* Latch.make(false)
    // A merchant's test clock moved: its retries fall due earlier, so the loop must look again.
    yield* Effect.acquireRelease(
      Effect.sync(() =>
        clocks.onAdvance((merchantId) => {
          pending.merchantClockMoved(merchantId)
          wakeUp.openUnsafe()
        }),
      ),
      (stopListening) => Effect.sync(stopListening),
    )
    yield* Effect.forkScoped(reportPending(pending))
    const intake = makeIntake({
      source: settings.source,
      pending,
      clocks,
      wake: () => wakeUp.openUnsafe(),
      pageSizeEvents: settings.pageSizeEvents,
      checkpointName: settings.checkpointName,
      progress,
    })
    const delivery = makeDelivery({ settings, pending, clocks, agents, wakeUp })
    // Deliveries start only once every pending notification is known, so
    // that no later status change of an order overtakes an earlier one.
    const caughtUpTo = yield* intake.catchUp
    yield* Effect.logInfo("notifier started").pipe(
      Effect.annotateLogs({ pending: pending.size, position: String(caughtUpTo) }),
    )
    return yield* Effect.raceFirst(intake.follow(caughtUpTo).pipe(Effect.andThen(Effect.never)), delivery.loop)
  }).pipe(
    Effect.onExit(() =>
      Effect.sync(() => {
        progress.status = "stopped"
      }),
    ),
    Effect.scoped,
  )
}

/**
 * The notifier as both its processes run it (the gateway's and `main.ts
 * run`): one process of all on the store delivers, the others wait their
 * turn, and a store failure stops it only until the store answers again.
 */
export const keepNotifierRunning = (options: NotifierOptions) =>
  restartedOnFailure("notifier", heldExclusively("notifier", runNotifier(options)))
