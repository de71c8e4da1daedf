import { Effect } from "effect"
import type { EventCodec } from "../codec.ts"
import { EventStore } from "../EventStore.ts"
import { decodeRecord } from "../handler.ts"

/**
 * What `readEvents` reads: an aggregate's namespace as every domain lib
 * exports it (`AcquiringOrder`, `RefundOrder`, `WalletTransfer`, ...), its
 * codec and the stream id of one instance.
 */
export interface EventsOf<Event, Key extends ReadonlyArray<unknown>> {
  readonly aggregate: { readonly codec: EventCodec<Event> }
  readonly streamId: (...key: Key) => string
}

/**
 * The events of one stream, read from the store and decoded with the
 * aggregate's own codec: what a test of one's own code reads back to hold a
 * law to, after the code under test wrote through Mizan. The key is the
 * stream id's, as the namespace's `streamId` takes it. A record the codec
 * cannot read fails with the store's `Undecodable` error naming it.
 *
 *   const events = yield* readEvents(AcquiringOrder, merchantId, merchantOrderNo)
 *   refundLimitHolds(events)
 */
export const readEvents = Effect.fn("readEvents")(function* <Event, Key extends ReadonlyArray<unknown>>(
  of: EventsOf<Event, Key>,
  ...key: Key
) {
  const store = yield* EventStore
  const records = yield* store.readStream(of.streamId(...key))
  return yield* Effect.forEach(records, (record) => decodeRecord(of.aggregate.codec, record))
})
