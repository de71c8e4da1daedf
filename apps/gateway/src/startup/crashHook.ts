/**
 * A test hook, for the tests that prove a crash between two appends heals
 * (docs/architecture.md, "Flows of several appends"): in sandbox mode,
 * `MIZAN_TEST_KILL_AFTER_APPENDING=RefundReserved` makes the process kill
 * itself with SIGKILL right after the first append that records an event of
 * that type is acknowledged, as a power cut or an OOM kill between the
 * flow's two appends would. Nothing can catch it, flush or answer: what the
 * store holds is all that is left. Production mode never reads the setting.
 */
import { EventStore, type EventStoreShape, type NewEvent, type StoreError } from "@mizan/eventsourcing"
import { Effect, Layer } from "effect"

export const killAfterAppendingVariable = "MIZAN_TEST_KILL_AFTER_APPENDING"

const killedAfter = (eventType: string, events: ReadonlyArray<NewEvent>) =>
  events.some((event) => event.type === eventType)
    ? Effect.sync(() => {
        process.kill(process.pid, "SIGKILL")
      })
    : Effect.void

const killingStore = (store: EventStoreShape, eventType: string): EventStoreShape => ({
  ...store,
  append: (streamId, events, expected) =>
    Effect.tap(store.append(streamId, events, expected), () => killedAfter(eventType, events)),
  appendMany: (parts) =>
    Effect.tap(store.appendMany(parts), () =>
      killedAfter(
        eventType,
        parts.flatMap((part) => part.events),
      ),
    ),
})

/** `store` as it is, or, when the hook is set in sandbox mode, killing the process after the append it names. */
export const withCrashHook = <ROut, E, RIn>(
  store: Layer.Layer<ROut | EventStore, E | StoreError, RIn>,
  mode: "sandbox" | "production",
  env: Readonly<Record<string, string | undefined>> = process.env,
): Layer.Layer<ROut | EventStore, E | StoreError, RIn> => {
  const eventType = env[killAfterAppendingVariable]
  if (mode !== "sandbox" || eventType === undefined || eventType === "") return store
  return Layer.effect(
    EventStore,
    Effect.map(EventStore, (inner) => killingStore(inner, eventType)),
  ).pipe(Layer.provideMerge(store))
}
