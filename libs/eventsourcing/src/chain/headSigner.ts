/**
 * The signer of the log's heads (docs/architecture.md#a-tamper-evident-log):
 * every round it reads the log after the last signed head, folds each
 * event's chain hash into the running digest, and when the log moved, signs
 * and stores a new head. One process signs (`keepHeadSignerRunning`: the
 * gateway's beside its notifier, or the notifier's own process); a round that finds nothing new costs one
 * read of the last head and one empty page.
 */
import { Clock, Effect } from "effect"
import { EventStore } from "../EventStore.ts"
import { type GlobalPosition, logStart, StoreError } from "../events.ts"
import { heldExclusively } from "../exclusiveWork.ts"
import { restartedOnFailure } from "../restart.ts"
import { chainGenesis, logDigestAfter, type SignedHead, signedHeadPayload } from "./chain.ts"

/** Once a minute: a cut-off tail or deleted stream is then detectable for everything older than a minute. */
export const headSignIntervalMsDefault = 60_000

/** Events read per page while folding: bounds the signer's memory. */
export const headSignPageSizeEvents = 1_000

/** Signs a head's payload (`signedHeadPayload`): the service's SHA256withRSA, in standard Base64. */
export type SignPayload = (payload: string) => string

interface Fold {
  readonly count: number
  readonly digest: string
  readonly position: GlobalPosition
  readonly lastEventId: string | undefined
}

/** Folds the log after `from` into the running digest, a page at a time. */
const foldLogAfter = Effect.fn("Eventsourcing.foldLogAfter")(function* (from: Fold) {
  const store = yield* EventStore
  let fold = from
  while (true) {
    const page = yield* store.readAll({ after: fold.position, maxCount: headSignPageSizeEvents })
    if (page.length === 0) return fold
    let { count, digest } = fold
    for (const event of page) {
      if (event.chainHash === undefined)
        return yield* new StoreError({
          reason: "InvalidRequest",
          detail: `${event.streamId} v${event.streamVersion} has no chain hash: this store keeps no chain, so its heads cannot be signed`,
        })
      digest = logDigestAfter(digest, event.chainHash)
      count++
    }
    const last = page.at(-1)!
    fold = { count, digest, position: last.globalPosition, lastEventId: last.id }
  }
})

/** One round: signs and stores a head when the log moved since the last one; answers it, or undefined. */
export const signLogHead = Effect.fnUntraced(function* (sign: SignPayload) {
  const store = yield* EventStore
  const last = yield* store.readLastSignedHead
  const from: Fold =
    last === undefined
      ? { count: 0, digest: chainGenesis, position: logStart, lastEventId: undefined }
      : { count: last.count, digest: last.digest, position: last.position, lastEventId: last.lastEventId }
  const fold = yield* foldLogAfter(from)
  if (fold.count === from.count || fold.lastEventId === undefined) return undefined
  const unsigned = {
    count: fold.count,
    lastEventId: fold.lastEventId,
    digest: fold.digest,
    signedAt: yield* Clock.currentTimeMillis,
  }
  const head: SignedHead = { ...unsigned, signature: sign(signedHeadPayload(unsigned)), position: fold.position }
  yield* store.storeSignedHead(head)
  return head
})

/** Signs a head every `intervalMs` while the log moves, for as long as it runs. */
export const runHeadSigner = (
  sign: SignPayload,
  intervalMs = headSignIntervalMsDefault,
): Effect.Effect<never, StoreError, EventStore> =>
  Effect.forever(Effect.andThen(signLogHead(sign), Effect.sleep(intervalMs)))

/**
 * The head signer as every process that holds the service's key runs it
 * (the gateway with the notifier role, the notifier's own process): one
 * process of all on the store signs while the others wait their turn, and
 * a store failure pauses it until the store answers again.
 */
export const keepHeadSignerRunning = (sign: SignPayload, intervalMs = headSignIntervalMsDefault) =>
  restartedOnFailure("head signer", heldExclusively("head-signer", runHeadSigner(sign, intervalMs)))
