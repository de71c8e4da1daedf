import { EventStore } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { expect, it } from "vitest"
import { layerSqlite } from "../src/index.ts"
import { tempDatabasePath } from "./support/stores.ts"

it("provides the EventStore service on the file, which keeps its events after the layer is gone", () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const path = yield* tempDatabasePath
        const appended = yield* Effect.provide(
          EventStore.use((store) => store.append("s", [{ type: "Happened", schemaVersion: 1, data: {} }], "no_stream")),
          layerSqlite(path),
        )
        const read = yield* Effect.provide(
          EventStore.use((store) => store.readStream("s")),
          layerSqlite(path),
        )
        expect(read).toEqual(appended.records)
      }),
    ),
  ))
