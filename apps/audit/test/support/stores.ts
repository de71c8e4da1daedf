/** Stores for the audit's tests: memory stores with recorded events, and SQLite files in a temporary folder. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { EventStore, logStart, makeMemoryEventStore, type NewEvent, type Sealing } from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { makeSqliteEventStore } from "@mizan/store-sqlite"
import { layerKeyFile, layerSealed, layerStore } from "@mizan/stores"
import { Effect, Layer } from "effect"

export const repositoryRoot = join(import.meta.dirname, "..", "..", "..", "..")

/** A fresh temporary folder, removed by `cleanup`. */
export const tempFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), "mizan-audit-"))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** `body` with a memory store as the EventStore. */
export const onMemoryStore = <A, E>(body: Effect.Effect<A, E, EventStore>, store = makeMemoryEventStore()) =>
  Effect.provideService(body, EventStore, store)

/**
 * Runs `body` with the SQLite store at `path` (created when absent), closed
 * afterwards: a promise, for the set-up of tests that then run the audit's
 * command line as a child process on the file.
 */
export const withSqliteStore = <A, E>(path: string, body: Effect.Effect<A, E, EventStore>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(makeSqliteEventStore(path), (store) => Effect.provideService(body, EventStore, store)),
    ),
  )

/**
 * Runs `body` on the SQLite store at `path` under sealing with Mizan's plan,
 * as a gateway writes it: the master key file at `masterKeyFile` is made
 * when missing (as in sandbox mode), and `Sealing` forgets.
 */
export const withSealedSqliteStore = <A, E>(
  path: string,
  masterKeyFile: string,
  body: Effect.Effect<A, E, EventStore | Sealing>,
) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(
        Layer.build(
          layerSealed(
            layerStore(`sqlite:${path}`, dirname(path)),
            layerKeyFile(masterKeyFile, { createWhenMissing: true, settingName: "masterKeyFile" }),
            mizanSealingPlan,
          ),
        ),
        (context) => Effect.provideContext(body, context),
      ),
    ),
  )

/** Every event of the store `body` runs on, as that store gives them. */
export const readWholeLog = Effect.flatMap(EventStore, (store) => store.readAll({ after: logStart, maxCount: 100_000 }))

/** One recorded event of a domain lib's fixture file, with the stream it belongs to. */
export interface FixtureEvent {
  readonly file: string
  readonly streamId: string
  readonly event: NewEvent
}

type FixtureFile =
  | ReadonlyArray<{
      readonly streamId: string
      readonly type: string
      readonly schemaVersion: number
      readonly data: unknown
    }>
  | {
      readonly streams: ReadonlyArray<{
        readonly streamId: string
        readonly events: ReadonlyArray<{
          readonly type: string
          readonly schemaVersion: number
          readonly data: unknown
        }>
      }>
    }

/**
 * Every event of every domain lib's replay fixtures (libs/<lib>/test/fixtures/<name>.events.json),
 * in file order. The files come in two shapes: a list of events that name
 * their stream, or a list of streams with their events.
 */
export const domainFixtures = (): ReadonlyArray<FixtureEvent> => {
  const libs = join(repositoryRoot, "libs")
  return readdirSync(libs).flatMap((lib) => {
    const folder = join(libs, lib, "test", "fixtures")
    let files: Array<string>
    try {
      files = readdirSync(folder).filter((f) => f.endsWith(".events.json"))
    } catch {
      return []
    }
    return files.flatMap((name) => {
      const file = `libs/${lib}/test/fixtures/${name}`
      const parsed = JSON.parse(readFileSync(join(folder, name), "utf8")) as FixtureFile
      const events = Array.isArray(parsed)
        ? parsed.map(({ streamId, type, schemaVersion, data }) => ({ streamId, type, schemaVersion, data }))
        : (parsed as Exclude<FixtureFile, ReadonlyArray<unknown>>).streams.flatMap(({ streamId, events }) =>
            events.map(({ type, schemaVersion, data }) => ({ streamId, type, schemaVersion, data })),
          )
      return events.map(({ streamId, ...event }) => ({ file, streamId, event }))
    })
  })
}

/**
 * Appends events in order to a store, each run of one stream's events as one
 * append. A fixture file records a stream's events, not where one decision's
 * events ended: appending them one by one made the replay judge the state
 * between two events of one decision (a transfer placed and failed at once)
 * whenever the two landed in different milliseconds.
 */
export const appendStreams = (events: ReadonlyArray<{ readonly streamId: string; readonly event: NewEvent }>) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    let run: Array<NewEvent> = []
    for (const [i, { streamId, event }] of events.entries()) {
      run.push(event)
      if (events[i + 1]?.streamId === streamId) continue
      yield* store.append(streamId, run, "any")
      run = []
    }
  })
