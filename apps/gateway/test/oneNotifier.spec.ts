/**
 * Several processes with the notifier role on one store: one of them
 * delivers, the others wait (the store's lock: an advisory lock on
 * PostgreSQL, a lock file beside a SQLite store), and one takes over when
 * the holder is killed. Each attempt reaches the merchant once: a retry that
 * two notifiers would both make (both see it due the moment the merchant's
 * test clock moves) is made once.
 */
import type { ChildProcess } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type EmbeddedServer, startEmbeddedPostgres, testServerSettings } from "@mizan/store-postgres/testing"
import { afterAll, describe, expect, it } from "vitest"
import { sandbox } from "./calls.ts"
import { testConfig, testMerchant } from "./harness.ts"
import { startMerchantEndpoint, waitUntil } from "./merchantEndpoint.ts"
import { call, clientOf, freePort, startService, stopService } from "./processes.ts"

/** Two processes with every role on `store`; orders paid through both, retries forced by the test clock, then a kill. */
const runTwoNotifiers = async (dataDir: string, store: string) => {
  const endpoint = await startMerchantEndpoint({ failFirstAttempts: true })
  const configPath = join(dataDir, "config.json")
  writeFileSync(configPath, JSON.stringify(testConfig({ merchants: [testMerchant("M1")], store })))
  const ports = [await freePort(), await freePort()] as const
  const processes: Array<ChildProcess> = []
  try {
    // One at a time: the first start makes the service's key pair; the first process holds the notifier's lock.
    for (const port of ports) processes.push(await startService(configPath, port))
    const payOrders = async (port: number, prefix: string, count: number) => {
      const client = clientOf(dataDir, port)
      for (let i = 0; i < count; i++) {
        const merchantOrderNo = `${prefix}-${i}`
        await call(
          client.call("/acquire2/placeOrder", {
            merchantOrderNo,
            subject: "One notifier",
            totalAmount: { amount: 10, currency: "AED" },
            paySceneCode: "PAYPAGE",
            notifyUrl: endpoint.url,
          } as never),
        )
        expect((await sandbox(client, "payOrder", { merchantOrderNo })).head.code).toBe("0")
      }
    }
    /** Moves the merchant's clock past the 2-minute retry, and waits until every notification has had both attempts. */
    const retryAll = async (port: number, notifications: number) => {
      await waitUntil(() => endpoint.posts.size === notifications, `${notifications} first attempts`)
      const moved = await sandbox(clientOf(dataDir, port), "advanceClock", { minutes: 3 })
      expect(moved.head.code).toBe("0")
      await waitUntil(() => [...endpoint.posts.values()].every((count) => count >= 2), "every retry")
      // Time enough for a second notifier, were one delivering, to make its copies.
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }

    await payOrders(ports[0], "before-a", 3)
    await payOrders(ports[1], "before-b", 3)
    await retryAll(ports[0], 6)

    // The holder dies; the other process's notifier takes over.
    await stopService(processes[0] as ChildProcess)
    await payOrders(ports[1], "after", 3)
    await retryAll(ports[1], 9)
    return endpoint.posts
  } finally {
    for (const child of processes) await stopService(child)
    await endpoint.close()
  }
}

describe("two processes with the notifier role on one store", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mizan-one-notifier-"))
  let postgres: EmbeddedServer | undefined
  afterAll(async () => {
    await postgres?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("on one SQLite file: each attempt is made once, and the survivor of a kill delivers", {
    timeout: 120_000,
  }, async () => {
    const sqliteDir = join(dataDir, "sqlite")
    mkdirSync(sqliteDir)
    const posts = await runTwoNotifiers(sqliteDir, "sqlite:store.db")
    expect([...posts.entries()].filter(([, count]) => count !== 2)).toEqual([])
    expect(posts.size).toBe(9)
  })

  it("on one PostgreSQL database: each attempt is made once, and the survivor of a kill delivers", {
    timeout: 120_000,
  }, async () => {
    postgres = await startEmbeddedPostgres({ settings: testServerSettings })
    const posts = await runTwoNotifiers(dataDir, await postgres.createDatabase("one_notifier"))
    expect([...posts.entries()].filter(([, count]) => count !== 2)).toEqual([])
    expect(posts.size).toBe(9)
  })
})
