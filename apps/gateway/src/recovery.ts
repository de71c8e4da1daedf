/**
 * Half-done flows finish by themselves (docs/architecture.md, "Flows of
 * several appends"): a request killed between two appends (a refund
 * reserved whose refund order was never created, a wallet transfer placed
 * and never settled) is completed by the service, not left until the
 * merchant retries, which it may never do.
 *
 * One process of all on the store does it, under the store's
 * `ExclusiveWork` lock, among those with the `expiry` role. It follows the
 * log from the beginning, keeping only the flows still open
 * (`trackHalfDone`, libs/order-flows), and every `recoverySweepIntervalMs`
 * completes those whose first step it has seen for `halfDoneAgeMs` (30 s):
 * after a restart, every flow the crash cut is completed within about 35 s
 * of the lock being taken.
 */
import { EventStore, heldExclusively, logStart, type RecordedEvent, restartedOnFailure } from "@mizan/eventsourcing"
import {
  completeHalfDone,
  forgetHalfDone,
  type HalfDoneFlows,
  type HalfDoneStep,
  halfDoneDue,
  noHalfDoneFlows,
  type OnMerchantTime,
  trackHalfDone,
} from "@mizan/order-flows"
import type { MerchantClocks } from "@mizan/test-clock"
import { Clock, Effect, Metric, Stream } from "effect"
import { ApiSettings } from "./pipeline/apiSettings.ts"

/** How often the half-done flows are looked at, in real time. */
export const recoverySweepIntervalMs = 5_000

export const halfDoneFlowsCompleted = Metric.counter("mizan_half_done_flows_completed_total", {
  description: "Flows a crash left half done that this process completed",
  incremental: true,
})

/** Every command a completion sends runs on its merchant's time, as the request's would have. */
const onMerchantTimeOf =
  (clocks: MerchantClocks): OnMerchantTime =>
  (merchantId, work) =>
    work(clocks.nowOf(merchantId)).pipe(Effect.provideService(Clock.Clock, clocks.clockOf(merchantId)))

/**
 * Completes one flow. A refusal means the flow cannot be completed as
 * recorded (the log says why): it is forgotten. A version conflict (the
 * merchant's retry got there at the same moment) or an unavailable member
 * directory leaves it for the next sweep; a store failure stops the
 * recovery until the store answers.
 */
const completeOne = (flows: HalfDoneFlows, step: HalfDoneStep, onMerchantTime: OnMerchantTime) =>
  completeHalfDone(step, onMerchantTime).pipe(
    Effect.tap(() => {
      forgetHalfDone(flows, step)
      return Metric.update(halfDoneFlowsCompleted, 1)
    }),
    Effect.catchTags({
      Rejection: (rejection) => {
        forgetHalfDone(flows, step)
        return Effect.logWarning(`a half-done flow cannot be completed: ${rejection.message}`, step)
      },
      VersionConflict: () => Effect.void,
      MemberDirectoryUnavailable: (unavailable) =>
        Effect.logWarning(`a half-done wallet transfer waits for the member directory: ${unavailable.detail}`, step),
    }),
    Effect.withSpan("Recovery.completeHalfDone", { attributes: { step: step._tag } }),
  )

const completeDue = Effect.fn("Recovery.completeHalfDoneFlows")(function* (
  flows: HalfDoneFlows,
  onMerchantTime: OnMerchantTime,
) {
  const nowMs = yield* Clock.currentTimeMillis
  for (const step of halfDoneDue(flows, nowMs)) yield* completeOne(flows, step, onMerchantTime)
})

/** The log, followed from its start, into `flows`; each event seen now, on the real clock. */
const follow = (flows: HalfDoneFlows, clocks: MerchantClocks) =>
  Effect.flatMap(EventStore, (store) =>
    Stream.runForEachArray(store.follow(logStart), (page: ReadonlyArray<RecordedEvent>) =>
      Effect.map(Clock.currentTimeMillis, (seenAtMs) => {
        for (const event of page) {
          // A merchant's test clock moving forward: completions run on its time.
          clocks.observe(event)
          trackHalfDone(flows, event, seenAtMs)
        }
      }),
    ),
  )

/** Follows the log and completes what is due, until interrupted or the store fails it. */
const runRecovery = Effect.gen(function* () {
  const { clocks } = yield* ApiSettings
  const flows = noHalfDoneFlows()
  const onMerchantTime = onMerchantTimeOf(clocks)
  const sweep = Effect.forever(
    Effect.andThen(Effect.sleep(recoverySweepIntervalMs), completeDue(flows, onMerchantTime)),
  )
  yield* Effect.all([follow(flows, clocks), sweep], { concurrency: 2, discard: true })
})

/**
 * The recovery, by one process of those sharing the store, started again
 * from the log's start whenever the store fails it.
 */
export const keepRecoveryRunning = restartedOnFailure(
  "recovery of half-done flows",
  heldExclusively("half-done-flows", runRecovery),
)
