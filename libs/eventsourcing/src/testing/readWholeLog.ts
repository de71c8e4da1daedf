import { withoutUndefined } from "@mizan/kernel"
import { Effect } from "effect"
import type { EventStoreShape } from "../EventStore.ts"
import { type GlobalPosition, logStart, type RecordedEvent } from "../events.ts"

/**
 * Every event of the store's log, in order, read a page of `pageSize` at a
 * time: for tests that look at all of it. `wholeEventsOf` as the port's
 * readAll takes it.
 */
export const readWholeLog = (store: EventStoreShape, pageSize = 1_000, wholeEventsOf?: (streamId: string) => boolean) =>
  Effect.gen(function* () {
    const all: Array<RecordedEvent> = []
    let after: GlobalPosition = logStart
    while (true) {
      const page = yield* store.readAll({
        after,
        maxCount: pageSize,
        ...withoutUndefined({ wholeEventsOf }),
      })
      all.push(...page)
      const last = page.at(-1)
      if (last === undefined) return all
      after = last.globalPosition
    }
  })
