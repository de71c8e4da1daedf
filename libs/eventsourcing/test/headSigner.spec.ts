import { createHash } from "node:crypto"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import {
  chainGenesis,
  EventStore,
  logDigestAfter,
  makeMemoryEventStore,
  signedHeadPayload,
  signLogHead,
} from "../src/index.ts"
import { readWholeLog } from "../src/testing/index.ts"

// A stand-in for the service's RSA signature: these tests are about what is signed, not how.
const sign = (payload: string) => createHash("sha256").update(payload).digest("base64")

const event = (n: number) => ({ type: "Happened", schemaVersion: 1, data: { n } })

/** Each test on a store of its own. */
const onMemoryStore = <A, E>(body: Effect.Effect<A, E, EventStore>) =>
  Effect.provideService(body, EventStore, makeMemoryEventStore())

describe("the head signer", () => {
  it.effect("signs nothing for an empty log, then a head over every event, then nothing until the log moves", () =>
    onMemoryStore(
      Effect.gen(function* () {
        const store = yield* EventStore
        expect(yield* signLogHead(sign)).toBeUndefined()
        yield* store.append("a", [event(1), event(2)], "no_stream")
        yield* store.append("b", [event(3)], "no_stream")
        const first = yield* signLogHead(sign)
        const log = yield* readWholeLog(store)
        expect(first).toMatchObject({
          count: 3,
          lastEventId: log[2]!.id,
          position: log[2]!.globalPosition,
          digest: log.reduce((digest, e) => logDigestAfter(digest, e.chainHash!), chainGenesis),
        })
        expect(first!.signature).toBe(sign(signedHeadPayload(first!)))
        expect(yield* signLogHead(sign)).toBeUndefined()
        expect(yield* store.readSignedHeads({ afterCount: 0, maxCount: 10 })).toEqual([first])
      }),
    ),
  )

  it.effect("continues the running digest from the last head, as a fold of the whole log would", () =>
    onMemoryStore(
      Effect.gen(function* () {
        const store = yield* EventStore
        yield* store.append("a", [event(1)], "no_stream")
        yield* signLogHead(sign)
        yield* store.append("a", [event(2), event(3)], 1)
        const second = yield* signLogHead(sign)
        const log = yield* readWholeLog(store)
        expect(second).toMatchObject({
          count: 3,
          digest: log.reduce((digest, e) => logDigestAfter(digest, e.chainHash!), chainGenesis),
        })
        expect((yield* store.readSignedHeads({ afterCount: 0, maxCount: 10 })).map((h) => h.count)).toEqual([1, 3])
      }),
    ),
  )
})
