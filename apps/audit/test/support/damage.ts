/**
 * Random damage to a sequence of events, for the property tests that compare
 * two folds of the same history: an event dropped, repeated, moved, or one of
 * its numbers changed. A history the deciders wrote breaks no rule; a damaged
 * one breaks them all sooner or later (anomalies, sums that no longer add up,
 * a refund confirmed twice), which is what the folds must agree on. And one
 * damage written into a store by hand: an order closed twice.
 */
import { AcquiringOrder } from "@mizan/acquiring"
import { EventStore, type RecordedEvent } from "@mizan/eventsourcing"
import { timestamp } from "@mizan/kernel"
import { Effect } from "effect"
import fc from "fast-check"

export interface Damage {
  readonly kind: "drop" | "repeat" | "moveEarlier" | "editNumber"
  /** Which event (modulo the length), and for `editNumber` which of its numbers (modulo their count). */
  readonly at: number
  readonly which: number
  /** For `editNumber`: added to the number (0 sets it to 0). */
  readonly by: -1 | 0 | 1 | 1000
}

export const damage: fc.Arbitrary<Damage> = fc.record({
  kind: fc.constantFrom("drop", "repeat", "moveEarlier", "editNumber"),
  at: fc.nat(),
  which: fc.nat(),
  by: fc.constantFrom(-1, 0, 0, 1, 1000),
})

/** The paths of every number inside `value`. */
const numberPaths = (value: unknown, path: ReadonlyArray<string> = []): Array<ReadonlyArray<string>> => {
  if (typeof value === "number") return [path]
  if (value === null || typeof value !== "object") return []
  return Object.entries(value).flatMap(([key, inner]) => numberPaths(inner, [...path, key]))
}

/** A copy of `value` with the number at `path` changed. */
const withNumber = (value: unknown, path: ReadonlyArray<string>, change: (n: number) => number): unknown => {
  const [key, ...rest] = path
  if (key === undefined) return change(value as number)
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as never) : { ...(value as object) }
  copy[key] = withNumber(copy[key], rest, change)
  return copy
}

/** `events` with each damage done in turn; `edit` reaches the object whose numbers change (an event, or its data). */
export const damaged = <A>(
  events: ReadonlyArray<A>,
  damages: ReadonlyArray<Damage>,
  numbersOf: (event: A) => unknown = (event) => event,
  withNumbers: (event: A, numbers: unknown) => A = (_, numbers) => numbers as A,
): Array<A> => {
  const out = [...events]
  for (const d of damages) {
    if (out.length === 0) break
    const at = d.at % out.length
    const event = out[at]!
    switch (d.kind) {
      case "drop":
        out.splice(at, 1)
        break
      case "repeat":
        out.splice(at, 0, event)
        break
      case "moveEarlier":
        out.splice(at, 1)
        out.splice(Math.max(0, at - 1 - (d.which % 3)), 0, event)
        break
      case "editNumber": {
        const numbers = numbersOf(event)
        const paths = numberPaths(numbers)
        if (paths.length === 0) break
        const path = paths[d.which % paths.length]!
        out[at] = withNumbers(
          event,
          withNumber(numbers, path, (n) => (d.by === 0 ? 0 : n + d.by)),
        )
        break
      }
    }
  }
  return out
}

/** A recorded log with each damage done in turn, the numbers changed inside the events' data. */
export const damagedLog = (log: ReadonlyArray<RecordedEvent>, damages: ReadonlyArray<Damage>): Array<RecordedEvent> =>
  damaged(
    log,
    damages,
    (record) => record.data,
    (record, data) => ({ ...record, data: data as object }),
  )

/** An acquiring order's OrderClosed, as the codec stores it. */
const orderClosed = AcquiringOrder.aggregate.codec.encode({
  _tag: "OrderClosed",
  failCode: "ORDER_CANCELLED",
  failDes: "by hand",
  closedAt: timestamp(1),
})

/**
 * Appends two OrderClosed at the end of the acquiring order `streamId` on
 * the store the effect runs on: a status transition the spec forbids, which
 * a replay reports as broken.
 */
export const closeOrderTwice = (streamId: string) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const version = (yield* store.readStream(streamId)).length
    yield* store.append(streamId, [orderClosed, orderClosed], version)
  })
