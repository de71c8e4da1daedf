import { it } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { describe, expect } from "vitest"
import { instrumentedEventStore, makeMemoryEventStore, storeAppends, storeEventsAppended } from "../src/index.ts"

const event = (n: number) => ({ type: "Noted", schemaVersion: 1, data: { n } })

/** The count of one outcome's series of `mizan_store_appends_total`. */
const appendsCounted = (outcome: string) =>
  Effect.map(Metric.value(Metric.withAttributes(storeAppends, { outcome })), (state) => Number(state.count))

describe("instrumented store", () => {
  it.effect("counts each append by what it came to, and the events the successful ones wrote", () =>
    Effect.gen(function* () {
      const store = instrumentedEventStore(makeMemoryEventStore())
      yield* store.append("s-1", [event(1), event(2)], "no_stream")
      yield* store.append("s-2", [event(3)], "no_stream")
      const conflict = yield* Effect.flip(store.append("s-1", [event(4)], "no_stream"))
      const refused = yield* Effect.flip(store.append("", [event(5)], "no_stream"))
      expect(conflict._tag).toBe("VersionConflict")
      expect(refused._tag).toBe("StoreError")
      expect(yield* appendsCounted("appended")).toBe(2)
      expect(yield* appendsCounted("version_conflict")).toBe(1)
      expect(yield* appendsCounted("error")).toBe(1)
      expect(Number((yield* Metric.value(storeEventsAppended)).count)).toBe(3)
    }),
  )
})
