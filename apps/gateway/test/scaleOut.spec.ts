/**
 * The scale-out proof, with real processes on one embedded PostgreSQL, and
 * on one SQLite file: two
 * gateways (roles api and expiry) and two notifiers (role notifier) take 200
 * paid orders and 50 refunds, and one notifier and one gateway are killed
 * (SIGKILL) in the middle. Every notification is delivered; a notification
 * reaches the merchant twice only when its attempt was in flight at the kill,
 * and the audit's count of recorded attempts is the POSTs received less
 * exactly those.
 */
import type { ChildProcess } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { MerchantClient } from "@mizan/merchant-client"
import { type EmbeddedServer, startEmbeddedPostgres, testServerSettings } from "@mizan/store-postgres/testing"
import { afterAll, describe, expect, it } from "vitest"
import type { Role } from "../src/config/config.ts"
import { sandbox } from "./calls.ts"
import { testConfig, testMerchant } from "./harness.ts"
import { startMerchantEndpoint } from "./merchantEndpoint.ts"
import { auditReplay, call, clientOf, freePort, startService, stopService } from "./processes.ts"

const ordersTotal = 200
const refundsTotal = 50
const requestsInFlight = 8

const dataDir = mkdtempSync(join(tmpdir(), "mizan-scale-out-"))
let postgres: EmbeddedServer | undefined
afterAll(async () => {
  await postgres?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/**
 * The proof on `store`, with configuration files in `folder`; `auditStore`
 * is the setting the audit reads it with.
 */
const proveScaleOut = async (folder: string, store: string, auditStore: string) => {
  const endpoint = await startMerchantEndpoint()
  const processes: Array<ChildProcess> = []
  const start = async (name: string, roles: ReadonlyArray<Role>) => {
    const configPath = join(folder, `${name}.json`)
    writeFileSync(configPath, JSON.stringify(testConfig({ merchants: [testMerchant("M1")], store, roles: [...roles] })))
    const port = await freePort()
    const child = await startService(configPath, port)
    processes.push(child)
    return { child, port, client: clientOf(folder, port) }
  }
  try {
    // One at a time: the first start makes the service's key pair; the first notifier holds the lock.
    const gateways = [await start("gateway-1", ["api", "expiry"]), await start("gateway-2", ["api", "expiry"])]
    const notifiers = [await start("notifier-1", ["notifier"]), await start("notifier-2", ["notifier"])]
    const alive = new Set(gateways)

    /** Runs a request on a gateway that is alive, and on the other when the first dies under it. */
    const onGateway = async <A>(i: number, request: (port: number, client: MerchantClient) => Promise<A>) => {
      for (let tries = 0; ; tries++) {
        const live = [...alive]
        const gateway = live[i % live.length]
        if (gateway === undefined) throw new Error("no gateway alive")
        try {
          return await request(gateway.port, gateway.client)
        } catch (error) {
          if (tries >= 3) throw error
        }
      }
    }
    const expected: Array<string> = []
    const work = Array.from({ length: ordersTotal }, (_, i) => async () => {
      const merchantOrderNo = `scale-${i}`
      await onGateway(i, (_port, client) =>
        call(
          client.call("/acquire2/placeOrder", {
            merchantOrderNo,
            subject: "Scale out",
            totalAmount: { amount: 20, currency: "AED" },
            paySceneCode: "PAYPAGE",
            notifyUrl: endpoint.url,
          } as never),
        ),
      )
      await onGateway(i, async (_port, client) => {
        const paid = await sandbox(client, "payOrder", { merchantOrderNo })
        // 62001 ORDER_PAID: a retry after the killed gateway had paid it before it died.
        if (paid.head.code !== "0" && paid.head.code !== "62001") throw new Error(`payOrder: ${paid.head.msg}`)
      })
      expected.push(`${merchantOrderNo} PAID_SUCCESS`)
      if (i % (ordersTotal / refundsTotal) === 0) {
        const refundMerchantOrderNo = `${merchantOrderNo}-r`
        await onGateway(i, (_port, client) =>
          call(
            client.call("/acquire2/refund/placeOrder", {
              refundMerchantOrderNo,
              originMerchantOrderNo: merchantOrderNo,
              amount: { amount: 5, currency: "AED" },
              notifyUrl: endpoint.url,
            } as never),
          ),
        )
        for (const step of ["settleRefund", "completeRefund"])
          await onGateway(i, async (_port, client) => {
            const done = await sandbox(client, step, { refundMerchantOrderNo })
            if (done.head.code !== "0") throw new Error(`${step}: ${done.head.msg}`)
          })
        expected.push(`${refundMerchantOrderNo} SUCCESS`)
      }
    })

    let next = 0
    const worker = async () => {
      while (next < work.length) {
        const index = next++
        if (index === ordersTotal / 2) {
          // Half way, with requests and deliveries in flight: the delivering notifier and a gateway die.
          notifiers[0]?.child.kill("SIGKILL")
          const gateway = gateways[0]
          if (gateway !== undefined) {
            alive.delete(gateway)
            gateway.child.kill("SIGKILL")
          }
        }
        await work[index]?.()
      }
    }
    await Promise.all(Array.from({ length: requestsInFlight }, worker))

    const deadline = Date.now() + 60_000
    while (!expected.every((what) => endpoint.said.has(what)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200))
    expect(expected.filter((what) => !endpoint.said.has(what))).toEqual([])
    expect(expected).toHaveLength(ordersTotal + refundsTotal)
    // Quiet for a moment, so that every attempt made is recorded before the audit counts them.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    for (const child of processes) await stopService(child)

    const audit = await auditReplay(auditStore, folder)
    expect(audit.stderr).toBe("")
    const report = JSON.parse(audit.stdout) as { ok: boolean; notificationAttempts: number }
    expect(report.ok).toBe(true)
    const posts = [...endpoint.posts.values()].reduce((sum, count) => sum + count, 0)
    // A notification POSTed twice had its first attempt in flight at the kill: made, never recorded.
    const duplicates = [...endpoint.posts.values()].reduce((sum, count) => sum + count - 1, 0)
    expect(report.notificationAttempts).toBe(posts - duplicates)
    expect(duplicates).toBeLessThanOrEqual(64)
  } finally {
    for (const child of processes) await stopService(child)
    await endpoint.close()
  }
}

describe("two gateways and two notifiers on one store, a notifier and a gateway killed midway", () => {
  it("on PostgreSQL: every notification delivered, only attempts in flight duplicated, as the audit counts", {
    timeout: 240_000,
  }, async () => {
    postgres = await startEmbeddedPostgres({ settings: testServerSettings })
    const store = await postgres.createDatabase("scale_out")
    await proveScaleOut(dataDir, store, store)
  })

  it("on one SQLite file: every notification delivered, only attempts in flight duplicated, as the audit counts", {
    timeout: 240_000,
  }, async () => {
    const folder = join(dataDir, "sqlite")
    mkdirSync(folder)
    await proveScaleOut(folder, "sqlite:store.db", `sqlite:${join(folder, "store.db")}`)
  })
})
