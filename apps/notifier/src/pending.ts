import { setBounded } from "@mizan/eventsourcing"
import type { Notification } from "@mizan/notification"
/**
 * The notifications waiting for an attempt, in memory, and the rules for
 * which may go next:
 * - per order (its ordering key), one at a time, in the order of the events
 *   that announced them: a later one waits until the earlier is delivered or
 *   given up;
 * - at most `deliveriesInFlightMax` attempts at once, and at most
 *   `deliveriesInFlightPerEndpointMax` to one endpoint (URL origin), so that
 *   a slow or dead merchant endpoint holds a few slots and never all of them.
 * Rebuilt from the store on start (see intake.ts); synchronous and pure of
 * effects, so the rules are tested directly.
 */

export interface DeliveryLimits {
  readonly deliveriesInFlightMax: number
  readonly deliveriesInFlightPerEndpointMax: number
}

/**
 * How many closed notifications are remembered, so that their own events read back from the log cost nothing; past
 * it the oldest eighth is forgotten at once (setBounded).
 */
export const closedRememberedMax = 10_000

export interface Tracked {
  readonly streamId: string
  /** Whose notification: its attempts fall due on that merchant's time. */
  readonly merchantId: string
  readonly orderingKey: string
  readonly sourcePosition: bigint
  /** The URL's origin: what the per-endpoint bound counts. */
  readonly endpoint: string
  state: Notification.Pending
  streamVersion: number
  /**
   * A global position at or before the event that opened this round of
   * attempts: the pending checkpoint never passes it, so a restart reads
   * that event again and finds this notification.
   */
  anchor: bigint
  inFlight: boolean
  /** The due time this sits in the heap with, in real time, when it does. */
  queuedAt: number | undefined
}

interface OrderQueue {
  /** Sorted by source position: the head is the only one that may go. */
  readonly items: Array<Tracked>
  busy: boolean
}

const endpointOf = (notifyUrl: string): string => {
  try {
    return new URL(notifyUrl).origin
  } catch {
    return "(not a URL)"
  }
}

/** A binary min-heap of (due time, notification); stale entries are skipped when they surface. */
class DueHeap {
  private readonly entries: Array<{ readonly dueAt: number; readonly tracked: Tracked }> = []

  get size(): number {
    return this.entries.length
  }

  peek(): { readonly dueAt: number; readonly tracked: Tracked } | undefined {
    return this.entries[0]
  }

  push(dueAt: number, tracked: Tracked): void {
    const entries = this.entries
    entries.push({ dueAt, tracked })
    let i = entries.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (entries[parent]!.dueAt <= entries[i]!.dueAt) break
      ;[entries[parent], entries[i]] = [entries[i]!, entries[parent]!]
      i = parent
    }
  }

  pop(): void {
    const entries = this.entries
    const last = entries.pop()
    if (last === undefined || entries.length === 0) return
    entries[0] = last
    let i = 0
    while (true) {
      const left = 2 * i + 1
      const right = left + 1
      let smallest = i
      if (left < entries.length && entries[left]!.dueAt < entries[smallest]!.dueAt) smallest = left
      if (right < entries.length && entries[right]!.dueAt < entries[smallest]!.dueAt) smallest = right
      if (smallest === i) return
      ;[entries[smallest], entries[i]] = [entries[i]!, entries[smallest]!]
      i = smallest
    }
  }
}

export class PendingNotifications {
  private readonly tracked = new Map<string, Tracked>()
  private readonly orders = new Map<string, OrderQueue>()
  private readonly due = new DueHeap()
  private readonly parked = new Map<string, Set<Tracked>>()
  private readonly inFlightByEndpoint = new Map<string, number>()
  private readonly closedVersions = new Map<string, number>()
  private readonly limits: DeliveryLimits
  private readonly offsetOf: (merchantId: string) => number
  private inFlightCount = 0

  /**
   * `offsetOf` is each merchant's sandbox test-clock offset: an attempt due at
   * a merchant's time T is due at real time T minus the offset, and the heap
   * and `takeDue` work in real time.
   */
  constructor(limits: DeliveryLimits, offsetOf: (merchantId: string) => number = () => 0) {
    this.limits = limits
    this.offsetOf = offsetOf
  }

  /** A merchant's clock moved forward: its attempts fall due earlier in real time. */
  merchantClockMoved(merchantId: string): void {
    for (const tracked of this.tracked.values()) if (tracked.merchantId === merchantId) this.queueIfEligible(tracked)
  }

  get size(): number {
    return this.tracked.size
  }

  /** The stream version the notifier already knows, so that reading the same events again costs nothing. */
  knownVersion(streamId: string): number | undefined {
    return this.tracked.get(streamId)?.streamVersion ?? this.closedVersions.get(streamId)
  }

  /**
   * Takes in a notification's state as read from the store: tracks it while
   * pending, forgets it once closed. Older news than what is known, and news
   * about a notification in flight (its attempt will say), are ignored.
   * Answers whether anything changed.
   */
  update(streamId: string, state: Notification.State, streamVersion: number, anchor: bigint): boolean {
    if ((this.knownVersion(streamId) ?? 0) >= streamVersion) return false
    const known = this.tracked.get(streamId)
    if (known?.inFlight) return false
    if (state.status !== "PENDING") {
      if (known !== undefined) this.forget(known)
      this.rememberClosed(streamId, streamVersion)
      return known !== undefined
    }
    if (known !== undefined) {
      known.state = state
      known.streamVersion = streamVersion
      this.queueIfEligible(known)
      return true
    }
    const { notification } = state
    const tracked: Tracked = {
      streamId,
      merchantId: notification.merchantId,
      orderingKey: notification.orderingKey,
      sourcePosition: notification.sourcePosition,
      endpoint: endpointOf(notification.notifyUrl),
      state,
      streamVersion,
      anchor,
      inFlight: false,
      queuedAt: undefined,
    }
    this.closedVersions.delete(streamId)
    this.tracked.set(streamId, tracked)
    const queue = this.orders.get(tracked.orderingKey) ?? { items: [], busy: false }
    this.orders.set(tracked.orderingKey, queue)
    insertSorted(queue.items, tracked)
    this.queueIfEligible(tracked)
    return true
  }

  /**
   * The next notification whose attempt is due at `now` (real time) and may
   * start under the bounds, marked in flight; undefined when none may start now.
   */
  takeDue(now: number): Tracked | undefined {
    while (this.inFlightCount < this.limits.deliveriesInFlightMax) {
      const top = this.due.peek()
      if (top === undefined || top.dueAt > now) return undefined
      const { tracked } = top
      const valid = this.isQueuedAt(tracked, top.dueAt)
      this.popDue()
      if (!valid) continue
      if ((this.inFlightByEndpoint.get(tracked.endpoint) ?? 0) >= this.limits.deliveriesInFlightPerEndpointMax) {
        const parked = this.parked.get(tracked.endpoint) ?? new Set()
        this.parked.set(tracked.endpoint, parked.add(tracked))
        continue
      }
      tracked.inFlight = true
      this.orderOf(tracked).busy = true
      this.inFlightCount++
      this.inFlightByEndpoint.set(tracked.endpoint, (this.inFlightByEndpoint.get(tracked.endpoint) ?? 0) + 1)
      return tracked
    }
    return undefined
  }

  /** When the earliest attempt that could start is due; undefined when none is waiting for time. */
  nextDueAt(): number | undefined {
    if (this.inFlightCount >= this.limits.deliveriesInFlightMax) return undefined
    for (let top = this.due.peek(); top !== undefined; top = this.due.peek()) {
      if (this.isQueuedAt(top.tracked, top.dueAt)) return top.dueAt
      this.popDue()
    }
    return undefined
  }

  /** An attempt ended; `state` and `streamVersion` are what the store recorded. */
  finish(tracked: Tracked, state: Notification.State, streamVersion: number): void {
    tracked.inFlight = false
    this.orderOf(tracked).busy = false
    this.inFlightCount--
    const endpointCount = (this.inFlightByEndpoint.get(tracked.endpoint) ?? 1) - 1
    if (endpointCount === 0) this.inFlightByEndpoint.delete(tracked.endpoint)
    else this.inFlightByEndpoint.set(tracked.endpoint, endpointCount)
    if (state.status === "PENDING") {
      tracked.state = state
      tracked.streamVersion = streamVersion
    } else {
      this.forget(tracked)
      this.rememberClosed(tracked.streamId, streamVersion)
    }
    const head = this.orders.get(tracked.orderingKey)?.items[0]
    if (head !== undefined) this.queueIfEligible(head)
    this.unpark(tracked.endpoint)
  }

  /** When the round of the longest-waiting pending notification opened, in real time; undefined when none waits. */
  oldestRoundOpenedAt(): number | undefined {
    let oldest: number | undefined
    for (const { state, merchantId } of this.tracked.values()) {
      const openedAt = state.roundStartedAt - this.offsetOf(merchantId)
      if (oldest === undefined || openedAt < oldest) oldest = openedAt
    }
    return oldest
  }

  /** The lowest anchor of any pending notification: where a restart must read from to find them all. */
  lowestAnchor(): bigint | undefined {
    let lowest: bigint | undefined
    for (const { anchor } of this.tracked.values()) if (lowest === undefined || anchor < lowest) lowest = anchor
    return lowest
  }

  /**
   * Gives the endpoint's free slots to the notifications parked on it, in
   * the order they were parked (their due order). Only as many as there are
   * slots: releasing all of them would only park them again, at a cost that
   * grows with the backlog of a busy endpoint.
   */
  private unpark(endpoint: string): void {
    const parked = this.parked.get(endpoint)
    if (parked === undefined) return
    let slots = this.limits.deliveriesInFlightPerEndpointMax - (this.inFlightByEndpoint.get(endpoint) ?? 0)
    for (const waiting of parked) {
      if (slots <= 0) break
      parked.delete(waiting)
      if (!this.isEligible(waiting) || this.tracked.get(waiting.streamId) !== waiting) continue
      this.queueIfEligible(waiting)
      slots--
    }
    if (parked.size === 0) this.parked.delete(endpoint)
  }

  private orderOf(tracked: Tracked): OrderQueue {
    const queue = this.orders.get(tracked.orderingKey)
    if (queue === undefined) throw new Error(`${tracked.streamId} is tracked without its order queue`)
    return queue
  }

  private isEligible(tracked: Tracked): boolean {
    const queue = this.orders.get(tracked.orderingKey)
    return !tracked.inFlight && queue !== undefined && !queue.busy && queue.items[0] === tracked
  }

  /**
   * Takes the heap's top entry out. Its notification is no longer queued,
   * whether the entry was stale (not the head of its order any more, closed)
   * or not: it is queued again when it becomes eligible.
   */
  private popDue(): void {
    const top = this.due.peek()
    this.due.pop()
    if (top !== undefined && top.tracked.queuedAt === top.dueAt) top.tracked.queuedAt = undefined
  }

  private isQueuedAt(tracked: Tracked, dueAt: number): boolean {
    return tracked.queuedAt === dueAt && this.tracked.get(tracked.streamId) === tracked && this.isEligible(tracked)
  }

  private queueIfEligible(tracked: Tracked): void {
    if (!this.isEligible(tracked) || this.parked.get(tracked.endpoint)?.has(tracked)) return
    const dueAt = tracked.state.nextAttemptAt - this.offsetOf(tracked.merchantId)
    if (tracked.queuedAt === dueAt) return
    tracked.queuedAt = dueAt
    this.due.push(dueAt, tracked)
  }

  private forget(tracked: Tracked): void {
    this.tracked.delete(tracked.streamId)
    tracked.queuedAt = undefined
    this.parked.get(tracked.endpoint)?.delete(tracked)
    const queue = this.orders.get(tracked.orderingKey)
    if (queue === undefined) return
    const index = queue.items.indexOf(tracked)
    if (index >= 0) queue.items.splice(index, 1)
    if (queue.items.length === 0 && !queue.busy) this.orders.delete(tracked.orderingKey)
    else if (index === 0 && queue.items[0] !== undefined) this.queueIfEligible(queue.items[0])
  }

  private rememberClosed(streamId: string, streamVersion: number): void {
    // Deleted first so that a stream closed again counts as the newest, not where it was first remembered.
    this.closedVersions.delete(streamId)
    setBounded(this.closedVersions, streamId, streamVersion, closedRememberedMax)
  }
}

/** Inserts by source position; a new status change usually belongs at the end. */
const insertSorted = (items: Array<Tracked>, tracked: Tracked): void => {
  let index = items.length
  while (index > 0 && items[index - 1]!.sourcePosition > tracked.sourcePosition) index--
  items.splice(index, 0, tracked)
}
