import { test } from "@fast-check/vitest"
import { fold } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { Notification, type NotificationDetails } from "@mizan/notification"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { closedRememberedMax, PendingNotifications, type Tracked } from "../src/pending.ts"

const t0 = 1_800_000_000_000

const notification = (id: string, orderingKey: string, sourcePosition: bigint, url = "https://a.example/n") =>
  ({
    notifyId: id,
    merchantId: "M1",
    notifyUrl: url,
    orderKey: "acquireOrder",
    order: {},
    orderingKey,
    sourceEventId: `event-${id}`,
    sourcePosition,
  }) satisfies NotificationDetails

/** A notification scheduled at `at`: its first attempt is due then. */
const pendingAt = (details: NotificationDetails, at = t0): Notification.Pending =>
  Notification.aggregate.evolve(Notification.aggregate.initialState, {
    _tag: "NotificationScheduled",
    ...details,
    at: at as Timestamp,
  }) as Notification.Pending

const delivered = (state: Notification.Pending, at = t0): Notification.State =>
  Notification.aggregate.evolve(state, {
    _tag: "NotificationAttempted",
    round: 1,
    attempt: 1,
    at: at as Timestamp,
    outcome: { _tag: "Delivered", statusCode: 200 },
  })

const failed = (state: Notification.Pending, at = t0): Notification.State =>
  Notification.aggregate.evolve(state, {
    _tag: "NotificationAttempted",
    round: 1,
    attempt: 1,
    at: at as Timestamp,
    outcome: { _tag: "Timeout", afterMs: 10_000 },
  })

const limits = { deliveriesInFlightMax: 10, deliveriesInFlightPerEndpointMax: 10 }

const track = (pending: PendingNotifications, details: NotificationDetails, anchor = 1n, at = t0) =>
  pending.update(`notification-${details.notifyId}`, pendingAt(details, at), 1, anchor)

/** Takes every attempt due at `now`, answering their notify_ids. */
const takeAll = (pending: PendingNotifications, now = t0) => {
  const taken = []
  for (let next = pending.takeDue(now); next !== undefined; next = pending.takeDue(now)) taken.push(next)
  return taken
}

describe("pending notifications", () => {
  it("lets only the earliest status change of an order go, and the next once it is delivered", () => {
    const pending = new PendingNotifications(limits)
    track(pending, notification("a2", "order-A", 20n))
    track(pending, notification("a1", "order-A", 10n))
    track(pending, notification("b1", "order-B", 15n))
    const first = takeAll(pending)
    expect(first.map((t) => t.state.notification.notifyId).sort()).toEqual(["a1", "b1"])
    const a1 = first.find((t) => t.state.notification.notifyId === "a1")!
    pending.finish(a1, delivered(a1.state), 2)
    expect(takeAll(pending).map((t) => t.state.notification.notifyId)).toEqual(["a2"])
  })

  it("keeps a later status change waiting while the earlier one's retry is not yet due", () => {
    const pending = new PendingNotifications(limits)
    track(pending, notification("a1", "order-A", 10n))
    track(pending, notification("a2", "order-A", 20n))
    const [a1] = takeAll(pending)
    pending.finish(a1!, failed(a1!.state), 2)
    expect(takeAll(pending, t0 + 60_000)).toEqual([])
    expect(pending.nextDueAt()).toBe(t0 + 120_000)
    expect(takeAll(pending, t0 + 120_000).map((t) => t.state.notification.notifyId)).toEqual(["a1"])
  })

  it("never starts a second attempt for an order while one is in flight, even for an earlier status change", () => {
    const pending = new PendingNotifications(limits)
    track(pending, notification("a2", "order-A", 20n))
    expect(takeAll(pending)).toHaveLength(1)
    track(pending, notification("a1", "order-A", 10n))
    expect(takeAll(pending)).toEqual([])
  })

  it("holds at most deliveriesInFlightPerEndpointMax attempts to one endpoint, and lets others by", () => {
    const pending = new PendingNotifications({ deliveriesInFlightMax: 10, deliveriesInFlightPerEndpointMax: 2 })
    for (let i = 0; i < 5; i++)
      track(pending, notification(`dead${i}`, `order-D${i}`, BigInt(i), "https://dead.example/n"))
    track(pending, notification("live", "order-L", 100n, "https://live.example/n"))
    const taken = takeAll(pending)
    expect(taken.map((t) => t.endpoint).sort()).toEqual([
      "https://dead.example",
      "https://dead.example",
      "https://live.example",
    ])
    const dead = taken.find((t) => t.endpoint === "https://dead.example")!
    pending.finish(dead, failed(dead.state), 2)
    expect(takeAll(pending).map((t) => t.endpoint)).toEqual(["https://dead.example"])
  })

  it("holds at most deliveriesInFlightMax attempts in all", () => {
    const pending = new PendingNotifications({ deliveriesInFlightMax: 3, deliveriesInFlightPerEndpointMax: 3 })
    for (let i = 0; i < 5; i++)
      track(pending, notification(`n${i}`, `order-${i}`, BigInt(i), `https://m${i}.example/n`))
    const taken = takeAll(pending)
    expect(taken).toHaveLength(3)
    expect(pending.nextDueAt()).toBeUndefined()
    pending.finish(taken[0]!, delivered(taken[0]!.state), 2)
    expect(takeAll(pending)).toHaveLength(1)
  })

  it("ignores news older than what it knows, and forgets a notification once closed", () => {
    const pending = new PendingNotifications(limits)
    const details = notification("a1", "order-A", 10n)
    expect(track(pending, details)).toBe(true)
    expect(track(pending, details)).toBe(false)
    const [a1] = takeAll(pending)
    pending.finish(a1!, delivered(a1!.state), 2)
    expect(pending.size).toBe(0)
    expect(pending.knownVersion("notification-a1")).toBe(2)
    expect(pending.update("notification-a1", pendingAt(details), 1, 5n)).toBe(false)
  })

  it("remembers at most closedRememberedMax closed notifications, forgetting the oldest eighth at once, never the latest", () => {
    const pending = new PendingNotifications(limits)
    const closed = delivered(pendingAt(notification("x", "order-X", 1n)))
    const close = (i: number) => pending.update(`notification-c${i}`, closed, 2, 1n)
    const remembered = (count: number) =>
      Array.from({ length: count }, (_, i) => i).filter((i) => pending.knownVersion(`notification-c${i}`) === 2)
    const eighth = Math.floor(closedRememberedMax / 8)
    for (let i = 0; i <= closedRememberedMax; i++) close(i)
    // One past the bound forgets the oldest eighth and one more, all at once.
    expect(remembered(closedRememberedMax + 1)).toEqual(
      Array.from({ length: closedRememberedMax - eighth }, (_, i) => i + eighth + 1),
    )
    const many = closedRememberedMax * 5
    for (let i = closedRememberedMax + 1; i < many; i++) close(i)
    const left = remembered(many)
    expect(left.length).toBeLessThanOrEqual(closedRememberedMax)
    expect(left.length).toBeGreaterThanOrEqual(closedRememberedMax - eighth)
    expect(left.at(-1)).toBe(many - 1)
  })

  it("answers the lowest anchor of the pending notifications, for the restart checkpoint", () => {
    const pending = new PendingNotifications(limits)
    expect(pending.lowestAnchor()).toBeUndefined()
    track(pending, notification("a1", "order-A", 10n), 42n)
    track(pending, notification("b1", "order-B", 11n), 17n)
    expect(pending.lowestAnchor()).toBe(17n)
  })
})

describe("pending notifications, over random histories", () => {
  const operation = fc.oneof(
    fc.record({
      kind: fc.constant("add" as const),
      order: fc.integer({ min: 0, max: 3 }),
      endpoint: fc.integer({ min: 0, max: 2 }),
      position: fc.integer({ min: 0, max: 1_000 }),
    }),
    fc.record({ kind: fc.constant("take" as const), minutes: fc.integer({ min: 0, max: 30 }) }),
    fc.record({ kind: fc.constant("finish" as const), pick: fc.nat(), acknowledged: fc.boolean() }),
  )

  test.prop([fc.array(operation, { maxLength: 80 })], { numRuns: 150 })(
    "keeps every bound, sends each order in order, and leaves nothing stuck",
    (operations) => {
      const bounds = { deliveriesInFlightMax: 3, deliveriesInFlightPerEndpointMax: 2 }
      const pending = new PendingNotifications(bounds)
      const inFlight: Array<Tracked> = []
      const open = new Map<string, bigint>()
      const positions = new Set<number>()
      let now = t0
      let count = 0

      const take = () => {
        for (let next = pending.takeDue(now); next !== undefined; next = pending.takeDue(now)) {
          const { orderingKey, sourcePosition, endpoint } = next
          expect(next.state.nextAttemptAt).toBeLessThanOrEqual(now)
          const earlier = [...open.entries()].filter(
            ([key, position]) => key.startsWith(`${orderingKey}/`) && position < sourcePosition,
          )
          expect(earlier, "an earlier status change of the order is still open").toEqual([])
          expect(inFlight.some((t) => t.orderingKey === orderingKey)).toBe(false)
          inFlight.push(next)
          expect(inFlight.length).toBeLessThanOrEqual(bounds.deliveriesInFlightMax)
          expect(inFlight.filter((t) => t.endpoint === endpoint).length).toBeLessThanOrEqual(
            bounds.deliveriesInFlightPerEndpointMax,
          )
        }
      }

      const finish = (index: number, acknowledged: boolean) => {
        const [tracked] = inFlight.splice(index, 1)
        if (tracked === undefined) return
        const outcome = acknowledged
          ? ({ _tag: "Delivered", statusCode: 200 } as const)
          : ({ _tag: "Timeout", afterMs: 1 } as const)
        const decided = Notification.aggregate.decide(
          { _tag: "RecordAttempt", at: now as Timestamp, outcome },
          tracked.state,
        )
        const state = fold(Notification.aggregate, Result.getOrThrow(decided), tracked.state)
        if (state.status !== "PENDING") open.delete(`${tracked.orderingKey}/${tracked.streamId}`)
        pending.finish(tracked, state, tracked.streamVersion + 1)
      }

      for (const op of operations) {
        if (op.kind === "add") {
          if (positions.has(op.position)) continue
          positions.add(op.position)
          const details = notification(
            `n${count++}`,
            `order-${op.order}`,
            BigInt(op.position),
            `https://m${op.endpoint}.example/n`,
          )
          pending.update(`notification-${details.notifyId}`, pendingAt(details, now), 1, BigInt(op.position))
          open.set(`${details.orderingKey}/notification-${details.notifyId}`, details.sourcePosition)
        } else if (op.kind === "take") {
          now += op.minutes * 60_000
          take()
        } else if (inFlight.length > 0) finish(op.pick % inFlight.length, op.acknowledged)
      }

      // Drain: with time running on and every attempt acknowledged, every notification goes out.
      for (let round = 0; round < 1_000 && (pending.size > 0 || inFlight.length > 0); round++) {
        now += 24 * 60 * 60_000
        take()
        while (inFlight.length > 0) finish(0, true)
      }
      expect(pending.size).toBe(0)
      expect(open.size).toBe(0)
    },
  )
})

describe("merchants on their own sandbox clocks", () => {
  it("takes an attempt when it is due on its merchant's time, and sooner once that merchant's clock moves forward", () => {
    const offsets = new Map<string, number>([["M2", 0]])
    const pending = new PendingNotifications(limits, (merchantId) => offsets.get(merchantId) ?? 0)
    // Scheduled on M1's time, an hour ahead of real time: due now in real time.
    track(pending, notification("ahead", "order-a", 1n), 1n, t0 + 3_600_000)
    offsets.set("M1", 3_600_000)
    pending.merchantClockMoved("M1")
    expect(takeAll(pending, t0).map((t) => t.streamId)).toEqual(["notification-ahead"])

    const m2 = { ...notification("later", "order-b", 2n), merchantId: "M2" }
    track(pending, m2, 2n, t0 + 60_000)
    expect(takeAll(pending, t0)).toEqual([])
    expect(pending.nextDueAt()).toBe(t0 + 60_000)
    // M2 moves a minute forward: its attempt is due now, and nobody else's changes.
    offsets.set("M2", 60_000)
    pending.merchantClockMoved("M2")
    expect(pending.nextDueAt()).toBe(t0)
    expect(takeAll(pending, t0).map((t) => t.streamId)).toEqual(["notification-later"])
  })
})
