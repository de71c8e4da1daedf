/**
 * A store that tells its operator what it does: every operation is a span
 * (`EventStore.append`, `EventStore.readStream`, ...) with the stream it
 * touches, and appends are counted by what they came to, so that a rising
 * share of version conflicts (processes racing for the same streams) shows
 * on a dashboard before it shows as latency. Wraps any adapter.
 */
import { Effect, Layer, Metric } from "effect"
import { EventStore, type EventStoreShape } from "./EventStore.ts"

/** Appends, by outcome: `appended`, `version_conflict` or `error`. */
export const storeAppends = Metric.counter("mizan_store_appends_total", {
  description: "Appends to the event store, by outcome: appended, version_conflict or error",
  incremental: true,
})

/** Events written by successful appends. */
export const storeEventsAppended = Metric.counter("mizan_store_events_appended_total", {
  description: "Events written to the event store",
  incremental: true,
})

const countAppend = (outcome: "appended" | "version_conflict" | "error") =>
  Metric.update(Metric.withAttributes(storeAppends, { outcome }), 1)

/** `store`, with a span per operation and the append metrics. */
export const instrumentedEventStore = (store: EventStoreShape): EventStoreShape => ({
  append: (streamId, events, expected) =>
    store.append(streamId, events, expected).pipe(
      Effect.tap(() => Effect.andThen(countAppend("appended"), Metric.update(storeEventsAppended, events.length))),
      Effect.tapErrorTag("VersionConflict", () => countAppend("version_conflict")),
      Effect.tapErrorTag("StoreError", () => countAppend("error")),
      Effect.withSpan("EventStore.append", { attributes: { streamId, events: events.length } }),
    ),
  readStream: (streamId, options) =>
    store.readStream(streamId, options).pipe(Effect.withSpan("EventStore.readStream", { attributes: { streamId } })),
  readAll: (options) =>
    store.readAll(options).pipe(
      Effect.withSpan("EventStore.readAll", {
        attributes: { after: String(options.after), maxCount: options.maxCount },
      }),
    ),
  // A follow lives as long as its reader: one span would cover hours, so it has none of its own.
  follow: (after, options) => store.follow(after, options),
  readCheckpoint: (name) =>
    store.readCheckpoint(name).pipe(Effect.withSpan("EventStore.readCheckpoint", { attributes: { checkpoint: name } })),
  storeCheckpoint: (name, position) =>
    store
      .storeCheckpoint(name, position)
      .pipe(Effect.withSpan("EventStore.storeCheckpoint", { attributes: { checkpoint: name } })),
  storeSignedHead: (head) =>
    store
      .storeSignedHead(head)
      .pipe(Effect.withSpan("EventStore.storeSignedHead", { attributes: { count: head.count } })),
  readSignedHeads: (options) => store.readSignedHeads(options).pipe(Effect.withSpan("EventStore.readSignedHeads")),
  readLastSignedHead: store.readLastSignedHead.pipe(Effect.withSpan("EventStore.readLastSignedHead")),
})

/** Wraps the store provided below it with `instrumentedEventStore`. */
export const layerInstrumentedEventStore = Layer.effect(EventStore, Effect.map(EventStore, instrumentedEventStore))
