/**
 * The store the generator's commands write through: the target store, with
 * every event given an id drawn from the seeded generator (stores make random
 * ids otherwise, and a seed must give the same history, ids included), and
 * every append counted, so the generator knows when it has written enough.
 */
import type { AppendResult, EventStoreShape, NewEvent } from "@mizan/eventsourcing"
import { Effect } from "effect"
import type { SimulatedClock } from "./clock.ts"
import type { Random } from "./random.ts"

/**
 * A UUIDv7 (RFC 9562) from the simulated time and seeded random bits: time
 * ordered, as the SQLite store prefers its ids (its README, The file).
 */
export const seededUuidV7 = (ms: number, random: Random): string => {
  const time = ms.toString(16).padStart(12, "0").slice(-12)
  const variant = ((random.int(0, 3) | 0b1000) >>> 0).toString(16)
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.hex(3)}-${variant}${random.hex(3)}-${random.hex(12)}`
}

export interface RecordingStore {
  readonly store: EventStoreShape
  /** Events appended through this store so far. */
  readonly eventsWritten: () => number
}

export const recordingStore = (target: EventStoreShape, random: Random, clock: SimulatedClock): RecordingStore => {
  let written = 0
  /** Ids from the seeded random, so that one seed makes one history to the byte. */
  const withIds = (events: ReadonlyArray<NewEvent>) =>
    events.map((event) => (event.id === undefined ? { ...event, id: seededUuidV7(clock.nowMs, random) } : event))
  const count = (results: ReadonlyArray<AppendResult>) =>
    Effect.sync(() => {
      for (const result of results) written += result.records.length
    })
  return {
    eventsWritten: () => written,
    store: {
      ...target,
      append: (streamId, events, expected) =>
        Effect.suspend(() =>
          target.append(streamId, withIds(events), expected).pipe(Effect.tap((result) => count([result]))),
        ),
      appendMany: (parts) =>
        Effect.suspend(() =>
          target.appendMany(parts.map((part) => ({ ...part, events: withIds(part.events) }))).pipe(Effect.tap(count)),
        ),
    },
  }
}
