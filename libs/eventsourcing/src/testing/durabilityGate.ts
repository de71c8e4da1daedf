/**
 * A gate in front of the step that makes a commit durable, for the tests of
 * an adapter that commits first and syncs after (SQLite syncing its log in
 * the thread pool): the adapter's test puts `pass` where a sync is asked for
 * (its log's syncs, or Node's `fdatasync` when the adapter is reached from
 * outside), and shows with `hold` what waits for the disk.
 */
import { Effect, Fiber } from "effect"
import { expect } from "vitest"
import type { SubjectKey, SubjectKeysShape } from "../sealing/SubjectKeys.ts"
import type { DurabilityGate } from "./storeUnderTest.ts"

export interface HeldDurability {
  /** Holds every request from now until the gate answered is released. */
  readonly hold: () => DurabilityGate
  /** Runs `request` (a sync) now, or, while held, once released. */
  readonly pass: (request: () => void) => void
  /** Lets every held request go on at once: for a file closing while some are held. */
  readonly releaseAll: () => void
}

export const heldDurability = (): HeldDurability => {
  let held: Array<() => void> | undefined
  let someoneWaits = () => {}
  const releaseAll = () => {
    const requests = held ?? []
    held = undefined
    for (const request of requests) request()
  }
  const hold = (): DurabilityGate => {
    held = []
    const waiting = new Promise<void>((resolve) => {
      someoneWaits = resolve
    })
    return { waiting: Effect.promise(() => waiting), release: Effect.sync(releaseAll) }
  }
  const pass = (request: () => void) => {
    if (held === undefined) return request()
    held.push(request)
    someoneWaits()
  }
  return { hold, pass, releaseAll }
}

/** `addKey(key)` on `keys`, raced against its first request for a sync, which `gate` holds back. */
export const addingWhileDurabilityHeld = (keys: SubjectKeysShape, key: SubjectKey, gate: DurabilityGate) =>
  Effect.gen(function* () {
    const adding = yield* Effect.forkChild(keys.addKey(key))
    const first = yield* Effect.raceFirst(
      Effect.as(Fiber.join(adding), "answered" as const),
      Effect.as(gate.waiting, "asked for a sync" as const),
    )
    return { first, adding }
  })

/**
 * Checks that `keys` answers `addKey(key)` only once the sync it asked for
 * is done, as a key table must whose keys no append of its own carries to
 * disk (a KurrentDB store's `keyTable=`): an acknowledged event must never
 * name a key a power loss can take back.
 */
export const expectKeyAnsweredOnceDurable = (keys: SubjectKeysShape, key: SubjectKey, gate: DurabilityGate) =>
  Effect.gen(function* () {
    const { first, adding } = yield* addingWhileDurabilityHeld(keys, key, gate)
    expect(first).toBe("asked for a sync")
    // A while after asking, still unanswered: an addKey that asked and went on would have answered by now.
    yield* Effect.sleep(20)
    expect(adding.pollUnsafe()).toBeUndefined()
    yield* gate.release
    expect(yield* Fiber.join(adding)).toEqual(key)
  })
