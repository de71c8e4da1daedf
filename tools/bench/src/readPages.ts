/**
 * The store's whole log read a page at a time, keeping nothing but the
 * count: the readAll workload of the sqlite, sealing, audit and postgres
 * benchmarks, which measure the store's reads, not an array growing beside
 * them.
 */
import { type EventStoreShape, type GlobalPosition, logStart, type RecordedEvent } from "@mizan/eventsourcing"
import { Effect } from "effect"

/** Reads every event of `store` in pages of `pageSizeEvents`, hands each page to `onPage`, and answers how many there were. */
export const forEachPage = (
  store: EventStoreShape,
  pageSizeEvents: number,
  onPage: (page: ReadonlyArray<RecordedEvent>) => void = () => {},
): Promise<number> =>
  Effect.runPromise(
    Effect.gen(function* () {
      let after: GlobalPosition = logStart
      let read = 0
      while (true) {
        const page = yield* store.readAll({ after, maxCount: pageSizeEvents })
        const last = page.at(-1)
        if (last === undefined) return read
        onPage(page)
        read += page.length
        after = last.globalPosition
      }
    }),
  )

/** Reads every event of `store` in pages of `pageSizeEvents`, and answers how many there were. */
export const countAllInPages = (store: EventStoreShape, pageSizeEvents: number): Promise<number> =>
  forEachPage(store, pageSizeEvents)

/** Reads every event of `store` in pages of `pageSizeEvents`; fails unless there were exactly `expectedEvents`. */
export const readAllInPages = async (store: EventStoreShape, pageSizeEvents: number, expectedEvents: number) => {
  const read = await countAllInPages(store, pageSizeEvents)
  if (read !== expectedEvents) throw new Error(`read ${read} events, expected ${expectedEvents}`)
}
