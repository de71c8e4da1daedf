/**
 * The real crash: `main.ts run` as a child process on a SQLite file, killed
 * with SIGKILL in the middle of deliveries (no finalizer runs), then a new
 * process on the same file.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { acquiringOrder, acquiringStreamId } from "@mizan/acquiring"
import { createOrder, merchantId, payOrder } from "@mizan/acquiring/testing"
import { type EventStore, handleCommand, newMasterKey } from "@mizan/eventsourcing"
import { layerSqlite } from "@mizan/store-sqlite"
import { writeMasterKeyFile } from "@mizan/stores"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { notifierDefaults, notifyIdFor, readNotification } from "../src/index.ts"
import { serviceKeys, startMerchant } from "./harness.ts"

const mainPath = join(import.meta.dirname, "..", "src", "main.ts")
const ordersCount = 60

let dir: string | undefined
const children: Array<ChildProcess> = []
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL")
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

const waitUntil = async (check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe("notifier process", () => {
  it("killed with SIGKILL mid-delivery, loses nothing, and the next process re-sends nothing recorded as acknowledged", async () => {
    dir = mkdtempSync(join(tmpdir(), "mizan-notifier-"))
    const storePath = join(dir, "mizan.db")
    const keyFile = join(dir, "service-private.pem")
    writeFileSync(keyFile, serviceKeys.privateKeyPem, { mode: 0o600 })
    const masterKeyFile = join(dir, "master-keys.json")
    writeMasterKeyFile(masterKeyFile, [newMasterKey()])
    const endpoint = await startMerchant(() => ({ body: "SUCCESS", delayMs: 40 }))
    const onStore = <A, E>(program: Effect.Effect<A, E, EventStore>) =>
      Effect.runPromise(Effect.provide(program, layerSqlite(storePath)))

    // Paid orders, as the gateway records them: the notifier announces each payment on its own.
    const ids = await onStore(
      Effect.gen(function* () {
        const ids: Array<string> = []
        for (let i = 0; i < ordersCount; i++) {
          const streamId = acquiringStreamId(merchantId, `P${i}`)
          yield* handleCommand(
            acquiringOrder,
            streamId,
            createOrder({ merchantOrderNo: `P${i}`, notifyUrl: endpoint.url() }),
          )
          const paid = yield* handleCommand(acquiringOrder, streamId, payOrder())
          ids.push(notifyIdFor(paid.records[0]?.id as string))
        }
        return ids
      }),
    )
    const deliveredIds = () =>
      onStore(
        Effect.gen(function* () {
          const delivered = new Set<string>()
          for (const id of ids) if ((yield* readNotification(id)).status === "Delivered") delivered.add(id)
          return delivered
        }),
      )
    const startProcess = () => {
      const child = spawn(process.execPath, [mainPath, "run"], {
        env: {
          ...process.env,
          MIZAN_STORE: `sqlite:${storePath}`,
          MIZAN_SERVICE_PRIVATE_KEY_FILE: keyFile,
          MIZAN_MASTER_KEY_FILE: masterKeyFile,
          MIZAN_NOTIFIER_MODE: "sandbox",
        },
        stdio: "ignore",
      })
      children.push(child)
      return child
    }

    const first = startProcess()
    await waitUntil(async () => (await deliveredIds()).size >= 5, "the first process has delivered some")
    first.kill("SIGKILL")
    await new Promise((resolve) => first.once("exit", resolve))
    const receivedBeforeRestart = endpoint.received.length
    const recordedBeforeCrash = await deliveredIds()
    expect(recordedBeforeCrash.size).toBeLessThan(ordersCount)

    startProcess()
    await waitUntil(async () => (await deliveredIds()).size === ordersCount, "every notification is delivered")

    const sentAgain = endpoint.received.slice(receivedBeforeRestart).map((r) => r.notifyId)
    expect(sentAgain.filter((id) => recordedBeforeCrash.has(id))).toEqual([])
    expect(new Set(endpoint.received.map((r) => r.notifyId))).toEqual(new Set(ids))
    // At least once: only what was in flight at the kill (at most 8 to one endpoint) arrives twice.
    expect(endpoint.received.length - ordersCount).toBeLessThanOrEqual(
      notifierDefaults.deliveriesInFlightPerEndpointMax,
    )
    expect(endpoint.received.every((r) => r.verified)).toBe(true)
  }, 40_000)
})
