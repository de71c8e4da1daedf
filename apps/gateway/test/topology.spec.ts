/**
 * The topology the gateway README shows, as real processes: two gateways
 * (roles api and expiry) and one notifier (role notifier) on one store.
 * Every notification reaches the merchant exactly once, whichever gateway
 * took the request: the gateways run no notifier of their own. On
 * PostgreSQL, and on one SQLite file shared by the processes.
 */
import type { ChildProcess } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type EmbeddedServer, startEmbeddedPostgres, testServerSettings } from "@mizan/store-postgres/testing"
import { afterAll, describe, expect, it } from "vitest"
import type { Role } from "../src/config/config.ts"
import { sandbox } from "./calls.ts"
import { testConfig, testMerchant } from "./harness.ts"
import { startMerchantEndpoint } from "./merchantEndpoint.ts"
import { call, clientOf, freePort, startService, stopService } from "./processes.ts"

const ordersPerGateway = 10

/** Starts the topology on `store`, pays orders and refunds one in two through both gateways, and answers what arrived. */
const runTopology = async (dataDir: string, store: string) => {
  const endpoint = await startMerchantEndpoint()
  const processes: Array<ChildProcess> = []
  const start = async (name: string, roles: ReadonlyArray<Role>) => {
    const configPath = join(dataDir, `${name}.json`)
    writeFileSync(configPath, JSON.stringify(testConfig({ merchants: [testMerchant("M1")], store, roles: [...roles] })))
    const port = await freePort()
    processes.push(await startService(configPath, port))
    return port
  }
  try {
    // One at a time: the first start makes the service's key pair, the others find it.
    const gatewayPorts = [await start("gateway-1", ["api", "expiry"]), await start("gateway-2", ["api", "expiry"])]
    await start("notifier", ["notifier"])
    const expected: Array<string> = []
    for (const [g, port] of gatewayPorts.entries()) {
      const client = clientOf(dataDir, port)
      for (let i = 0; i < ordersPerGateway; i++) {
        const merchantOrderNo = `topology-${g}-${i}`
        await call(
          client.call("/acquire2/placeOrder", {
            merchantOrderNo,
            subject: "Topology",
            totalAmount: { amount: 10, currency: "AED" },
            paySceneCode: "PAYPAGE",
            notifyUrl: endpoint.url,
          } as never),
        )
        expect((await sandbox(client, "payOrder", { merchantOrderNo })).head.code).toBe("0")
        expected.push(`${merchantOrderNo} PAID_SUCCESS`)
        if (i % 2 === 0) {
          const refundMerchantOrderNo = `${merchantOrderNo}-r`
          await call(
            client.call("/acquire2/refund/placeOrder", {
              refundMerchantOrderNo,
              originMerchantOrderNo: merchantOrderNo,
              amount: { amount: 1, currency: "AED" },
              notifyUrl: endpoint.url,
            } as never),
          )
          for (const step of ["settleRefund", "completeRefund"])
            expect((await sandbox(client, step, { refundMerchantOrderNo })).head.code).toBe("0")
          expected.push(`${refundMerchantOrderNo} SUCCESS`)
        }
      }
    }
    const deadline = Date.now() + 30_000
    while (!expected.every((what) => endpoint.said.has(what)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100))
    // A moment more, in which a second notifier (were there one) would deliver its copies.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    return { expected, said: endpoint.said, received: endpoint.posts }
  } finally {
    for (const child of processes) await stopService(child)
    await endpoint.close()
  }
}

const expectEachOnce = ({ expected, said, received }: Awaited<ReturnType<typeof runTopology>>) => {
  for (const what of expected) expect(said, what).toContain(what)
  expect([...received.entries()].filter(([, count]) => count !== 1)).toEqual([])
}

describe("two gateways and one notifier", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mizan-topology-"))
  let postgres: EmbeddedServer | undefined
  afterAll(async () => {
    await postgres?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("on one PostgreSQL database: every paid order and refund is notified exactly once", {
    timeout: 120_000,
  }, async () => {
    postgres = await startEmbeddedPostgres({ settings: testServerSettings })
    expectEachOnce(await runTopology(dataDir, await postgres.createDatabase("topology")))
  })

  it("on one SQLite file: every paid order and refund is notified exactly once", { timeout: 120_000 }, async () => {
    const sqliteDir = join(dataDir, "sqlite")
    mkdirSync(sqliteDir)
    expectEachOnce(await runTopology(sqliteDir, "sqlite:store.db"))
  })
})
