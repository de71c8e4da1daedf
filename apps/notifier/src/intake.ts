/**
 * From the global log to notification streams. The intake reads every event
 * after its checkpoint: an event the source announces becomes a notification
 * (its stream keyed by a notify_id derived from the event's id, so reading
 * it again schedules nothing new), and the notifier's own round-opening
 * events (scheduled, resent by an operator, perhaps from another process)
 * bring a pending notification into memory.
 *
 * Two checkpoints are kept in the store:
 * - `<name>.intake`: every event up to here has been described and scheduled;
 * - `<name>.pending`: every notification still pending opened its round after
 *   here.
 * A restart reads from the lower of the two. Events up to the intake
 * checkpoint are not described again; notification events among them are
 * looked at, and a stream is read only for a round-opening event of a
 * notification not known. The cost of a restart is thus one pass over the log
 * written since the oldest pending round opened, which the schedule bounds to
 * about a day (1462 minutes plus the wait behind earlier notifications of the
 * same order), and one stream read per notification opened in that time.
 */

import {
  EventStore,
  type GlobalPosition,
  handleCommand,
  loadAggregate,
  type RecordedEvent,
  type StoreError,
  type VersionConflict,
} from "@mizan/eventsourcing"
import { issueMessage } from "@mizan/kernel"
import { Notification } from "@mizan/notification"
import { Announcement, type NotificationSource } from "@mizan/order-views"
import type { MerchantClocks } from "@mizan/test-clock"
import { Clock, Effect, Option, Result, Schema, Stream } from "effect"
import { notifyIdFor } from "./notifyId.ts"
import type { PendingNotifications } from "./pending.ts"
import type { NotifierProgress } from "./progress.ts"

export interface IntakeContext {
  readonly source: NotificationSource
  readonly pending: PendingNotifications
  /** Each merchant's time: kept current from the log's test-clock events, and the time a notification is scheduled at. */
  readonly clocks: MerchantClocks
  /** Tells the delivery loop that something may be due. */
  readonly wake: () => void
  readonly pageSizeEvents: number
  readonly checkpointName: string
  readonly progress: NotifierProgress
}

type IntakeError = StoreError | VersionConflict

/** Events of one page described and scheduled at once. */
export const schedulesInFlightMax = 32

const decodeAnnouncement = Schema.decodeUnknownResult(Announcement)

/** What reading an event found out about a notification. */
interface PendingUpdate {
  readonly streamId: string
  readonly state: Notification.State
  readonly streamVersion: number
  readonly anchor: GlobalPosition
}

/** How often, at most, the intake writes its checkpoints (real time). */
export const checkpointIntervalMs = 1_000

export const makeIntake = (context: IntakeContext) => {
  const { source, pending, clocks, wake, pageSizeEvents, checkpointName, progress } = context
  const intakeCheckpoint = `${checkpointName}.intake`
  const pendingCheckpoint = `${checkpointName}.pending`
  let describedUpTo: GlobalPosition
  let storedIntake: GlobalPosition
  let storedPending: GlobalPosition

  /** A round-opening event of a notification not known yet: read its stream. */
  const observeOwn = Effect.fnUntraced(function* (event: RecordedEvent) {
    if (!Notification.roundOpeningEventTypes.has(event.type)) return undefined
    if ((pending.knownVersion(event.streamId) ?? 0) >= event.streamVersion) return undefined
    const loaded = yield* loadAggregate(Notification.aggregate, event.streamId)
    return { streamId: event.streamId, ...loaded, anchor: event.globalPosition } satisfies PendingUpdate
  })

  /** An event the source announces: schedule its notification (nothing new when it already is). */
  const schedule = Effect.fnUntraced(function* (event: RecordedEvent) {
    const described = yield* source.describe(event)
    if (Option.isNone(described)) return undefined
    // A malformed announcement is the source's bug: say so, and let it stop
    // this notification only, never the others.
    const announcement = decodeAnnouncement(described.value)
    if (Result.isFailure(announcement)) {
      yield* Effect.logError("announcement refused, no notification scheduled").pipe(
        Effect.annotateLogs({ sourceEventId: event.id, problem: issueMessage(announcement.failure.issue) }),
      )
      return undefined
    }
    const notifyId = notifyIdFor(event.id)
    const { merchantId } = announcement.success
    yield* clocks.ensureLoaded(merchantId)
    const streamId = Notification.streamId(notifyId)
    const handled = yield* handleCommand(Notification.aggregate, streamId, {
      _tag: "Schedule",
      ...announcement.success,
      notifyId,
      sourceEventId: event.id,
      sourcePosition: event.globalPosition,
      at: clocks.nowOf(merchantId),
    }).pipe(
      Effect.provideService(Clock.Clock, clocks.clockOf(merchantId)),
      Effect.catchTag("NotificationRefused", (refused) => Effect.die(refused)),
    )
    const opened = handled.records[0]
    if (opened === undefined) return undefined
    return { streamId, ...handled, anchor: opened.globalPosition } satisfies PendingUpdate
  })

  /**
   * The events of a page are looked at concurrently (so that a durable
   * store commits their appends together), and what they found is taken
   * into the pending notifications afterwards, in log order: the delivery
   * loop never sees a later status change of an order before an earlier one.
   */
  const processPage = Effect.fnUntraced(function* (page: ReadonlyArray<RecordedEvent>) {
    // A merchant's test clock that moved (in this process or another) moves its retries.
    for (const event of page) clocks.observe(event)
    const described = describedUpTo
    const updates = yield* Effect.forEach(
      page,
      (event) =>
        Notification.isStream(event.streamId)
          ? observeOwn(event)
          : event.globalPosition > described
            ? schedule(event)
            : Effect.succeed(undefined),
      { concurrency: schedulesInFlightMax },
    )
    // A restarted notifier learns each merchant's clock before it queues the merchant's retries.
    for (const update of updates)
      if (update?.state.status === "PENDING") yield* clocks.ensureLoaded(update.state.notification.merchantId)
    let changed = false
    for (const update of updates)
      if (update !== undefined && pending.update(update.streamId, update.state, update.streamVersion, update.anchor))
        changed = true
    if (changed) wake()
    for (const event of page)
      if (!Notification.isStream(event.streamId) && event.globalPosition > describedUpTo)
        describedUpTo = event.globalPosition
    const last = page.at(-1)
    if (last === undefined) return
    progress.processedUpTo = last.globalPosition
    yield* storeCheckpoints(last.globalPosition)
  })

  /**
   * Moves both checkpoints as far as they may go, writing only what changed,
   * and at most once per `checkpointIntervalMs`: each write is a durable
   * transaction of its own, and under load pages arrive a few events at a
   * time. A checkpoint that lags only means a restart reads a little more
   * of the log again, which intake takes idempotently.
   */
  let checkpointStoredAtMs = Number.NEGATIVE_INFINITY
  const storeCheckpoints = Effect.fnUntraced(function* (processedUpTo: GlobalPosition) {
    const nowMs = Date.now()
    if (nowMs - checkpointStoredAtMs < checkpointIntervalMs) return
    checkpointStoredAtMs = nowMs
    const store = yield* EventStore
    if (describedUpTo > storedIntake) {
      yield* store.storeCheckpoint(intakeCheckpoint, describedUpTo)
      storedIntake = describedUpTo
    }
    const lowestAnchor = pending.lowestAnchor()
    const pendingMark =
      lowestAnchor === undefined || lowestAnchor - 1n > processedUpTo ? processedUpTo : lowestAnchor - 1n
    if (pendingMark !== storedPending) {
      yield* store.storeCheckpoint(pendingCheckpoint, pendingMark)
      storedPending = pendingMark
    }
  })

  /**
   * Reads the log from the checkpoints to its end, rebuilding the pending
   * notifications; answers the position reached, where following starts.
   */
  const catchUp: Effect.Effect<GlobalPosition, IntakeError, EventStore> = Effect.gen(function* () {
    const store = yield* EventStore
    progress.status = "catchingUp"
    storedIntake = yield* store.readCheckpoint(intakeCheckpoint)
    storedPending = yield* store.readCheckpoint(pendingCheckpoint)
    describedUpTo = storedIntake
    let position = storedIntake < storedPending ? storedIntake : storedPending
    while (true) {
      const page = yield* store.readAll({ after: position, maxCount: pageSizeEvents })
      const last = page.at(-1)
      if (last === undefined) {
        progress.processedUpTo = position
        return position
      }
      yield* processPage(page)
      position = last.globalPosition
    }
  })

  /** Every event appended after `position`, without end. */
  const follow = Effect.fnUntraced(function* (position: GlobalPosition) {
    const store = yield* EventStore
    progress.status = "following"
    yield* store.follow(position, { pageSizeEvents }).pipe(Stream.runForEachArray(processPage))
  })

  return { catchUp, follow }
}
