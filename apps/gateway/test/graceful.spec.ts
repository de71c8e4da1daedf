/**
 * SIGTERM in the middle of a load of creates, payments and notifications:
 * the service stops taking requests, answers those it took, lets the
 * notification attempts in flight end and records them, closes the store
 * and exits 0. Nothing it acknowledged is lost, and every POST a merchant
 * received is an attempt in the store.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { sandbox } from "./calls.ts"
import { testConfig, testMerchant } from "./harness.ts"
import { startMerchantEndpoint } from "./merchantEndpoint.ts"
import { auditReplay, call, clientOf, freePort, startService, stopService } from "./processes.ts"

const dataDir = mkdtempSync(join(tmpdir(), "mizan-graceful-"))
const children: Array<ChildProcess> = []

afterAll(async () => {
  for (const child of children) await stopService(child)
  rmSync(dataDir, { recursive: true, force: true })
})

const audit = async () => {
  const replay = await auditReplay(`sqlite:${join(dataDir, "store.db")}`, dataDir)
  expect([replay.code, replay.stderr]).toEqual([0, ""])
  return JSON.parse(replay.stdout) as { ok: boolean; notificationAttempts: number }
}

describe("SIGTERM under load", () => {
  it("loses no acknowledged request and leaves no notification attempt unrecorded", { timeout: 90_000 }, async () => {
    // Each answer takes 400 ms: when the signal comes, attempts are in flight.
    const endpoint = await startMerchantEndpoint({ answerDelayMs: 400 })
    const configPath = join(dataDir, "config.json")
    writeFileSync(configPath, JSON.stringify(testConfig({ merchants: [testMerchant("M1")], store: "sqlite:store.db" })))
    const port = await freePort()
    const service = await startService(configPath, port)
    children.push(service)
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      service.once("exit", (code, signal) => resolve({ code, signal })),
    )
    const client = clientOf(dataDir, port)
    const paidAcknowledged: Array<string> = []
    let signalled = false
    let refusedAfterSignal = 0
    await Promise.all(
      Array.from({ length: 8 }, async (_, lane) => {
        for (let i = 0; refusedAfterSignal === 0; i++) {
          const merchantOrderNo = `term-${lane}-${i}`
          try {
            await call(
              client.call("/acquire2/placeOrder", {
                merchantOrderNo,
                subject: "Graceful",
                totalAmount: { amount: 10, currency: "AED" },
                paySceneCode: "PAYPAGE",
                notifyUrl: endpoint.url,
              } as never),
            )
            const paid = await sandbox(client, "payOrder", { merchantOrderNo })
            expect(paid.head.code).toBe("0")
            paidAcknowledged.push(merchantOrderNo)
          } catch (error) {
            // Once the signal came, a request is either answered or refused a connection: never half-done.
            if (!signalled) throw error
            refusedAfterSignal++
          }
          if (paidAcknowledged.length >= 60 && !signalled) {
            signalled = true
            service.kill("SIGTERM")
          }
        }
      }),
    )
    const exit = await exited
    expect(exit).toEqual({ code: 0, signal: null })
    const postsReceived = [...endpoint.posts.values()].reduce((sum, count) => sum + count, 0)
    expect(postsReceived).toBeGreaterThan(0)
    // Every POST the merchant received is an attempt the store recorded: none was cut off unrecorded.
    const report = await audit()
    expect(report.ok).toBe(true)
    expect(report.notificationAttempts).toBe(postsReceived)

    children.push(await startService(configPath, port))
    for (const merchantOrderNo of paidAcknowledged) {
      const order = await call(client.call("/acquire2/getOrder", { merchantOrderNo } as never))
      expect((order as { acquireOrder: { status: string } }).acquireOrder.status, merchantOrderNo).toBe("PAID_SUCCESS")
    }
    await endpoint.close()
  })
})
