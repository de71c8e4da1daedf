import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  invariants,
  type Event as NotificationEvent,
  aggregate as notificationAggregate,
  type State,
} from "../src/notification.ts"

interface FixtureRecord {
  readonly streamId: string
  readonly type: string
  readonly schemaVersion: number
  readonly data: unknown
}

const fixturesDir = join(import.meta.dirname, "fixtures")

/** Decodes and folds every stream of a fixture file, checking the invariants after every event. */
const replay = (records: ReadonlyArray<FixtureRecord>): Map<string, State> => {
  const states = new Map<string, State>()
  for (const record of records) {
    const decoded = notificationAggregate.codec.decode(record)
    if (Result.isFailure(decoded)) throw new Error(`${record.streamId} ${record.type}: ${decoded.failure}`)
    const event: NotificationEvent = decoded.success
    const state = notificationAggregate.evolve(states.get(record.streamId) ?? notificationAggregate.initialState, event)
    expect(invariants(state), `${record.streamId} after ${record.type}`).toEqual([])
    states.set(record.streamId, state)
  }
  return states
}

describe("recorded notification events", () => {
  const files = readdirSync(fixturesDir).filter((name) => name.endsWith(".events.json"))

  it("has fixture files to replay", () => {
    expect(files.length).toBeGreaterThan(0)
  })

  for (const file of files)
    it(`replays every event of ${file} with the invariants kept`, () => {
      replay(JSON.parse(readFileSync(join(fixturesDir, file), "utf8")))
    })

  it("replays version 1 histories to the states they recorded", () => {
    const states = replay(JSON.parse(readFileSync(join(fixturesDir, "notification.v1.events.json"), "utf8")))
    expect(states.get("notification-a3f1c2d4e5b60718293a4b5c6d7e8f90")).toMatchObject({
      status: "DELIVERED",
      round: 2,
      attemptsInRound: 2,
      attemptsTotal: 10,
      roundRequestedBy: "ops@mizan",
      notification: { orderKey: "acquireOrder", sourcePosition: 41n },
    })
    expect(states.get("notification-5be0a1f3c2d94e8a7b6c5d4e3f2a1b0c")).toMatchObject({
      status: "GIVEN_UP",
      attemptsTotal: 0,
      reason: { _tag: "UrlRefused", detail: "10.0.0.7 is a private address" },
    })
  })
})
