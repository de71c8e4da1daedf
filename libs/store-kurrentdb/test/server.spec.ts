/**
 * The port's contract suite against a real KurrentDB server. It runs only
 * when KURRENTDB_CONNECTION_STRING names one (e.g.
 * `kurrentdb://localhost:2113?tls=false`); each store gets a namespace of
 * its own on the shared server. Without a server it says so, and checks
 * only that the adapter loads.
 */
import { randomUUID } from "node:crypto"
import { eventStoreContract } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { layerKurrentDb, makeKurrentDbEventStore } from "../src/index.ts"

const connectionString = process.env.KURRENTDB_CONNECTION_STRING

if (connectionString === undefined) {
  describe("EventStore contract: kurrentdb", () => {
    it("was NOT run: KURRENTDB_CONNECTION_STRING is not set; the adapter module loads", () => {
      console.log(
        "KurrentDB contract suite NOT RUN: no server. Set KURRENTDB_CONNECTION_STRING " +
          "(e.g. kurrentdb://localhost:2113?tls=false) to run it. See libs/store-kurrentdb/README.md.",
      )
      expect(typeof makeKurrentDbEventStore).toBe("function")
      expect(typeof layerKurrentDb).toBe("function")
    })
  })
} else {
  eventStoreContract(
    "kurrentdb",
    Effect.gen(function* () {
      const namespace = `mizan-test-${randomUUID()}-`
      const store = yield* makeKurrentDbEventStore(connectionString, { namespace, pollIntervalMs: 100 })
      return { store, reopen: () => makeKurrentDbEventStore(connectionString, { namespace }) }
    }),
    { propertyRuns: 10, testTimeoutMs: 60_000, appendsManyInTurn: true },
  )
}
