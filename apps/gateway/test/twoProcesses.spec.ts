/**
 * Two gateway processes on one PostgreSQL database (issue: production
 * stores): concurrent refunds of one order through both never take more
 * than was paid, since the refundable balance lives on the order's stream
 * and the store's expected-version check is the only lock.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type EmbeddedServer, startEmbeddedPostgres } from "@mizan/store-postgres/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sandbox } from "./calls.ts"
import { testConfig, testMerchant } from "./harness.ts"
import { call, clientOf, freePort, startService, stopService } from "./processes.ts"

const dataDir = mkdtempSync(join(tmpdir(), "mizan-two-"))
let postgres: EmbeddedServer
const services: Array<ChildProcess> = []
const ports: Array<number> = []

beforeAll(async () => {
  postgres = await startEmbeddedPostgres()
  const store = await postgres.createDatabase("two_gateways")
  const configPath = join(dataDir, "config.json")
  writeFileSync(configPath, JSON.stringify(testConfig({ merchants: [testMerchant("M1")], store })))
  // The first start makes the service's key pair; the second must find it, not race to make its own.
  for (let i = 0; i < 2; i++) {
    const port = await freePort()
    ports.push(port)
    services.push(await startService(configPath, port))
  }
}, 60_000)

afterAll(async () => {
  for (const service of services) await stopService(service)
  await postgres?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** A merchant endpoint on loopback that acknowledges every notification and keeps the bodies. */
const startEndpoint = async () => {
  const bodies: Array<string> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString("utf8"))
      response.writeHead(200).end("SUCCESS")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/notify`
  return { url, bodies, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe("two gateway processes on one PostgreSQL database", () => {
  it("deliver notifications from the shared log (the notifier's checkpoint works on PostgreSQL)", {
    timeout: 60_000,
  }, async () => {
    const endpoint = await startEndpoint()
    try {
      const a = clientOf(dataDir, ports[0] as number)
      const merchantOrderNo = `two-notify-${Date.now()}`
      await call(
        a.call("/acquire2/placeOrder", {
          merchantOrderNo,
          subject: "Notified",
          totalAmount: { amount: 5, currency: "AED" },
          paySceneCode: "PAYPAGE",
          notifyUrl: endpoint.url,
        } as never),
      )
      expect((await sandbox(a, "payOrder", { merchantOrderNo })).head.code).toBe("0")
      const deadline = Date.now() + 30_000
      while (
        !endpoint.bodies.some((b) => b.includes(merchantOrderNo) && b.includes("PAID_SUCCESS")) &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 100))
      const paid = endpoint.bodies.filter((b) => b.includes(merchantOrderNo) && b.includes("PAID_SUCCESS"))
      // Each process runs a notifier on the shared log: delivery is at least once (the README says so).
      expect(paid.length).toBeGreaterThanOrEqual(1)
      expect(new Set(paid.map((b) => (JSON.parse(b) as { notify_id: string }).notify_id)).size).toBe(1)
    } finally {
      await endpoint.close()
    }
  })

  it("never refund more than was paid, whichever process takes each refund", { timeout: 60_000 }, async () => {
    const [a, b] = ports.map((port) => clientOf(dataDir, port)) as [
      ReturnType<typeof clientOf>,
      ReturnType<typeof clientOf>,
    ]
    const merchantOrderNo = `two-${Date.now()}`
    await call(
      a.call("/acquire2/placeOrder", {
        merchantOrderNo,
        subject: "Shared",
        totalAmount: { amount: 100, currency: "AED" },
        paySceneCode: "PAYPAGE",
      } as never),
    )
    expect((await sandbox(a, "payOrder", { merchantOrderNo })).head.code).toBe("0")
    const attempts = Array.from({ length: 40 }, (_, i) =>
      call(
        (i % 2 === 0 ? a : b).call("/acquire2/refund/placeOrder", {
          refundMerchantOrderNo: `${merchantOrderNo}-r${i}`,
          originMerchantOrderNo: merchantOrderNo,
          amount: { amount: 7, currency: "AED" },
        } as never),
      ),
    )
    const results = await Promise.allSettled(attempts)
    const accepted = results.filter((r) => r.status === "fulfilled").length
    expect(accepted).toBeLessThanOrEqual(14)
    const refused = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as { code?: string }).code] : []))
    expect(refused.every((code) => code === "62006" || code === "500")).toBe(true)
    const order = await call(b.call("/acquire2/getOrder", { merchantOrderNo }))
    expect(order.acquireOrder.status).toBe("PAID_SUCCESS")
    expect(accepted).toBeGreaterThan(0)
    const anAccepted = results.findIndex((r) => r.status === "fulfilled")
    const refund = await call(
      b.call("/acquire2/refund/getOrder", { refundMerchantOrderNo: `${merchantOrderNo}-r${anAccepted}` }),
    )
    expect(refund.refundSummary?.remainRefundAmount).toBe(10_000 - accepted * 700)
  })
})
