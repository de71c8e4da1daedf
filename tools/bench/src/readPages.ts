/**
 * The store's whole log read a page at a time, keeping nothing but the
 * count: the readAll workload of the sqlite and sealing benchmarks, which
 * measure the store's reads, not an array growing beside them.
 */
import { type EventStoreShape, type GlobalPosition, logStart } from "@mizan/eventsourcing"
import { Effect } from "effect"

/** Reads every event of `store` in pages of `pageSizeEvents`; fails unless there were exactly `expectedEvents`. */
export const readAllInPages = (store: EventStoreShape, pageSizeEvents: number, expectedEvents: number) =>
  Effect.runPromise(
    Effect.gen(function* () {
      let after: GlobalPosition = logStart
      let read = 0
      while (true) {
        const page = yield* store.readAll({ after, maxCount: pageSizeEvents })
        const last = page.at(-1)
        if (last === undefined) break
        read += page.length
        after = last.globalPosition
      }
      if (read !== expectedEvents) throw new Error(`read ${read} events, expected ${expectedEvents}`)
    }),
  )
