/**
 * Whether the store takes writes, as this process last found: a full disk,
 * a read-only file or a lost PostgreSQL connection fails every append while
 * reads may still work, so a readiness probe that reads says nothing of it.
 * Every write through the store (`append`, `appendMany`, `storeCheckpoint`,
 * `storeSignedHead`) reports what it came to: a StoreError the store itself
 * caused (any reason but `InvalidRequest`, which is the caller's mistake)
 * marks writes as failing, a write that goes through marks them working.
 * A version conflict says nothing either way.
 *
 * A process that says it is not ready gets no traffic to write with, so the
 * readiness probe writes by itself while writes fail (and before the first
 * write, on a store just opened): `probe` stores the checkpoint
 * `write-probe` at the log's start, a row rewritten in the store's
 * checkpoints (a KurrentDB checkpoint stream), committed as an append is.
 * It adds no event to the log: the audit's replay, the chain and the signed
 * heads never see it, and no reader takes it for a position, as no reader
 * of that name exists.
 *
 * The log says when writes started failing (an error, with the store's
 * detail) and when they came back (with how long they failed); metrics
 * say it as `mizan_store_writes_failing` (1 while they fail) and
 * `mizan_store_write_outages_total`. Outage times are read from the wall
 * clock, not Effect's: a write made for a sandbox merchant runs on its test
 * clock, which may be days ahead.
 */
import { Context, Effect, Layer, Metric } from "effect"
import { EventStore, type EventStoreShape } from "./EventStore.ts"
import { logStart, StoreError } from "./events.ts"

/** The checkpoint the readiness probe writes: no reader has this name. */
export const writeProbeCheckpoint = "write-probe"

/** 1 while this process's writes to the store fail, 0 otherwise. */
export const storeWritesFailing = Metric.gauge("mizan_store_writes_failing", {
  description: "1 while this process's writes to the event store fail, 0 once they go through",
})

/** How many times writes started failing. */
export const storeWriteOutages = Metric.counter("mizan_store_write_outages_total", {
  description: "Times this process's writes to the event store started failing",
  incremental: true,
})

/** What the last write found: none yet, working, or failing since a time and why. */
export type WriteState =
  | { readonly status: "unproven" }
  | { readonly status: "ok" }
  | { readonly status: "failing"; readonly sinceMs: number; readonly detail: string }

export class WriteHealth extends Context.Service<
  WriteHealth,
  {
    /** What the last write through the store found. */
    readonly state: () => WriteState
    /** Writes the probe checkpoint through the store and answers what it found. */
    readonly probe: Effect.Effect<WriteState>
  }
>()("@mizan/eventsourcing/WriteHealth") {}

/** Whether a write's failure is the store's own: not a conflict, not the caller's mistake. */
const isStoreFault = (error: unknown): error is StoreError =>
  error instanceof StoreError && error.reason !== "InvalidRequest"

/** The state, changed by each write's outcome, with a log line and the metrics at each change. */
const makeWriteTracker = () => {
  let state: WriteState = { status: "unproven" }
  const failed = (error: StoreError) =>
    Effect.suspend(() => {
      if (state.status === "failing") return Effect.void
      state = { status: "failing", sinceMs: Date.now(), detail: error.detail }
      return Effect.all([
        Metric.update(storeWritesFailing, 1),
        Metric.update(storeWriteOutages, 1),
        Effect.logError("store writes fail; /ready answers 503 until a write goes through", {
          reason: error.reason,
          detail: error.detail,
        }),
      ])
    })
  const wentThrough = Effect.suspend(() => {
    const before = state
    if (before.status === "ok") return Effect.void
    state = { status: "ok" }
    if (before.status === "unproven") return Metric.update(storeWritesFailing, 0)
    return Effect.all([
      Metric.update(storeWritesFailing, 0),
      Effect.logInfo("store writes go through again", {
        failedForSeconds: Math.round((Date.now() - before.sinceMs) / 100) / 10,
      }),
    ])
  })
  /** `write`, its outcome told to the tracker. */
  const watched = <A, E>(write: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    write.pipe(
      Effect.tap(() => wentThrough),
      Effect.tapError((error) => (isStoreFault(error) ? failed(error) : Effect.void)),
    )
  return { state: () => state, watched }
}

/** `store`, each write's outcome told to `watched`. */
const watchedEventStore = (
  store: EventStoreShape,
  watched: <A, E>(write: Effect.Effect<A, E>) => Effect.Effect<A, E>,
): EventStoreShape => ({
  ...store,
  append: (streamId, events, expected) => watched(store.append(streamId, events, expected)),
  appendMany: (parts) => watched(store.appendMany(parts)),
  storeCheckpoint: (name, position) => watched(store.storeCheckpoint(name, position)),
  storeSignedHead: (head) => watched(store.storeSignedHead(head)),
})

/**
 * The store provided below it, each write watched, and the WriteHealth
 * that tells what they found.
 */
export const layerWriteHealth = Layer.effectContext(
  Effect.gen(function* () {
    const tracker = makeWriteTracker()
    const store = watchedEventStore(yield* EventStore, tracker.watched)
    // Its failure is what it found: told to the tracker, as every write's is.
    const probe = store.storeCheckpoint(writeProbeCheckpoint, logStart).pipe(Effect.ignore, Effect.map(tracker.state))
    return Context.make(EventStore, store).pipe(Context.add(WriteHealth, { state: tracker.state, probe }))
  }),
)
