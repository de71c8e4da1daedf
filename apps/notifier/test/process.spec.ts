/**
 * The real crash: `main.ts run` as a child process on a SQLite file, killed
 * with SIGKILL in the middle of deliveries (no finalizer runs), then a new
 * process on the same file.
 */

import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { it } from "@effect/vitest"
import { AcquiringOrder } from "@mizan/acquiring"
import { createOrder, merchantId, payOrder } from "@mizan/acquiring/testing"
import { EventStore, handleCommand, newMasterKey, signedHeadPayload } from "@mizan/eventsourcing"
import { verify } from "@mizan/protocol"
import { layerSqlite } from "@mizan/store-sqlite"
import { writeMasterKeyFile } from "@mizan/stores"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { notifierDefaults, notifyIdFor, readNotification } from "../src/index.ts"
import { eventually, serviceKeys, startMerchant } from "./harness.ts"

const mainPath = join(import.meta.dirname, "..", "src", "main.ts")
const ordersCount = 60

/** A folder of the test's own, removed when the test ends. */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "mizan-notifier-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true })),
)

/** `main.ts run` as a child process, killed when the test ends if it still runs. */
const notifierProcess = (env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync(() => spawn(process.execPath, [mainPath, "run"], { env: { ...process.env, ...env }, stdio: "ignore" })),
    (child) => Effect.sync(() => (child.exitCode === null ? child.kill("SIGKILL") : undefined)),
  )

describe("notifier process", () => {
  // The notifiers are child processes on the real clock, and the test waits for them in real time (it.live).
  it.live(
    "killed with SIGKILL mid-delivery, loses nothing, and the next process re-sends nothing recorded as acknowledged",
    () =>
      Effect.gen(function* () {
        const dir = yield* tempDir
        const storePath = join(dir, "mizan.db")
        const keyFile = join(dir, "service-private.pem")
        writeFileSync(keyFile, serviceKeys.privateKeyPem, { mode: 0o600 })
        const masterKeyFile = join(dir, "master-keys.json")
        writeMasterKeyFile(masterKeyFile, [newMasterKey()])
        const endpoint = yield* startMerchant(() => ({ body: "SUCCESS", delayMs: 40 }))
        const onStore = <A, E>(program: Effect.Effect<A, E, EventStore>) =>
          Effect.provide(program, layerSqlite(storePath))

        // Paid orders, as the gateway records them: the notifier announces each payment on its own.
        const ids = yield* onStore(
          Effect.gen(function* () {
            const ids: Array<string> = []
            for (let i = 0; i < ordersCount; i++) {
              const streamId = AcquiringOrder.streamId(merchantId, `P${i}`)
              yield* handleCommand(
                AcquiringOrder.aggregate,
                streamId,
                createOrder({ merchantOrderNo: `P${i}`, notifyUrl: endpoint.url() }),
              )
              const paid = yield* handleCommand(AcquiringOrder.aggregate, streamId, payOrder())
              ids.push(notifyIdFor(paid.records[0]?.id as string))
            }
            return ids
          }),
        )
        const deliveredIds = onStore(
          Effect.gen(function* () {
            const delivered = new Set<string>()
            for (const id of ids) if ((yield* readNotification(id)).status === "DELIVERED") delivered.add(id)
            return delivered
          }),
        )
        const startProcess = notifierProcess({
          MIZAN_STORE: `sqlite:${storePath}`,
          MIZAN_SERVICE_PRIVATE_KEY_FILE: keyFile,
          MIZAN_MASTER_KEY_FILE: masterKeyFile,
          MIZAN_NOTIFIER_MODE: "sandbox",
        })

        const first = yield* startProcess
        yield* eventually(
          Effect.map(deliveredIds, (delivered) => delivered.size >= 5),
          "the first process has delivered some",
          20_000,
          25,
        )
        first.kill("SIGKILL")
        yield* Effect.callback<void>((resume) => {
          first.once("exit", () => resume(Effect.void))
        })
        const receivedBeforeRestart = endpoint.received.length
        const recordedBeforeCrash = yield* deliveredIds
        expect(recordedBeforeCrash.size).toBeLessThan(ordersCount)

        yield* startProcess
        yield* eventually(
          Effect.map(deliveredIds, (delivered) => delivered.size === ordersCount),
          "every notification is delivered",
          20_000,
          25,
        )

        const sentAgain = endpoint.received.slice(receivedBeforeRestart).map((r) => r.notifyId)
        expect(sentAgain.filter((id) => recordedBeforeCrash.has(id))).toEqual([])
        expect(new Set(endpoint.received.map((r) => r.notifyId))).toEqual(new Set(ids))
        // At least once: only what was in flight at the kill (at most 8 to one endpoint) arrives twice.
        expect(endpoint.received.length - ordersCount).toBeLessThanOrEqual(
          notifierDefaults.deliveriesInFlightPerEndpointMax,
        )
        expect(endpoint.received.every((r) => r.verified)).toBe(true)
        // The process holds the service's key, so it also signs the log's heads.
        const lastHead = onStore(Effect.flatMap(EventStore, (store) => store.readLastSignedHead))
        yield* eventually(
          Effect.map(lastHead, (head) => head !== undefined),
          "a signed head of the log",
          10_000,
          25,
        )
        const head = (yield* lastHead)!
        expect(verify(signedHeadPayload(head), head.signature, serviceKeys.publicKey)).toBe(true)
      }),
    40_000,
  )
})
