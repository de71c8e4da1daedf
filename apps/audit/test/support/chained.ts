/**
 * Stores with a chained history and signed heads, for `verify` and the
 * export and import of the chain: a generated history copied in, with a
 * head signed after two thirds of it, another three events before its end,
 * and the last three events covered by no head yet.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { EventStore, makeMemoryEventStore, type SignedHead, signLogHead } from "@mizan/eventsourcing"
import { readWholeLog } from "@mizan/eventsourcing/testing"
import { generateHistory } from "@mizan/histories"
import { generateKeyPair, sign } from "@mizan/protocol"
import { Clock, Effect } from "effect"
import { fixedClock } from "../../src/index.ts"

/** The service's key pair of these tests: RSA-2048, made once per test file. */
export const serviceKeys = generateKeyPair()

/** Writes the service's public key into `dir`, as the gateway does; answers its path. */
export const writeServicePublicKey = (dir: string): string => {
  const path = join(dir, "service-public.pem")
  writeFileSync(path, serviceKeys.publicKeyPem)
  return path
}

export const signWithServiceKey = (payload: string) => sign(payload, serviceKeys.privateKey)

/** Events after the last head: a cut among them shows only once the next head is signed. */
export const eventsAfterLastHead = 3

/**
 * Writes a generated history (every event decodes, so that import takes it)
 * into the store provided, event by event with its id and recorded time,
 * signing the two heads on the way; answers them.
 */
export const chainedHistory = (seed: number, events: number) =>
  Effect.gen(function* () {
    const generated = makeMemoryEventStore()
    yield* Effect.provideService(generateHistory({ seed, events }), EventStore, generated)
    const log = yield* readWholeLog(generated)
    const store = yield* EventStore
    const heads: Array<SignedHead> = []
    const signAt = new Set([Math.floor((log.length * 2) / 3), log.length - eventsAfterLastHead])
    for (const [i, { streamId, streamVersion, id, type, schemaVersion, data, metadata }] of log.entries()) {
      const { recordedAt, ...ids } = metadata
      yield* store
        .append(streamId, [{ id, type, schemaVersion, data, metadata: ids }], streamVersion - 1)
        .pipe(Effect.provideService(Clock.Clock, fixedClock(recordedAt)))
      if (signAt.has(i + 1)) heads.push((yield* signLogHead(signWithServiceKey))!)
    }
    return { heads: heads as unknown as readonly [SignedHead, SignedHead] }
  })
