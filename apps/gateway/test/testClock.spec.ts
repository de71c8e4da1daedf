/**
 * Sandbox test clocks, one per merchant, that never break the sandbox and
 * never go back: over real HTTP, and across a SIGKILL with real processes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { hourMs, minuteMs } from "@mizan/kernel"
import type { MerchantClient } from "@mizan/merchant-client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ok, refused, sandbox } from "./calls.ts"
import { newNumber, startGateway, type TestGateway, testConfig, testMerchant } from "./harness.ts"
import { waitUntil } from "./merchantEndpoint.ts"
import { auditReplay, call, clientOf, freePort, startService, stopService } from "./processes.ts"

interface MerchantClock {
  readonly now: number
  readonly offsetMinutes: number
}

const clockOf = async (gateway: TestGateway, partnerId: string) => {
  const answer = await sandbox(gateway.merchant(partnerId), "getClock", {})
  expect(answer.head.code).toBe("0")
  return answer.body as unknown as MerchantClock
}

const order = (merchantOrderNo: string, notifyUrl?: string) =>
  ({
    merchantOrderNo,
    subject: "Clock",
    totalAmount: { amount: 10, currency: "AED" },
    paySceneCode: "PAYPAGE",
    ...(notifyUrl === undefined ? {} : { notifyUrl }),
  }) as never

/** A merchant endpoint that answers 500 to every notification, counting them by order and keeping their notify_timestamps. */
let failingEndpoint: Server
let failingUrl: string
const attemptsByOrder = new Map<string, number>()
const attemptTimesByOrder = new Map<string, Array<number>>()

let gateway: TestGateway
beforeAll(async () => {
  gateway = await startGateway({ config: testConfig({ merchants: [testMerchant("M1"), testMerchant("M2")] }) })
  failingEndpoint = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        notify_timestamp: number
        acquireOrder?: { merchantOrderNo: string }
      }
      const no = body.acquireOrder?.merchantOrderNo ?? "?"
      attemptsByOrder.set(no, (attemptsByOrder.get(no) ?? 0) + 1)
      attemptTimesByOrder.set(no, [...(attemptTimesByOrder.get(no) ?? []), body.notify_timestamp])
      response.writeHead(500).end("down")
    })
  })
  await new Promise<void>((resolve) => failingEndpoint.listen(0, "127.0.0.1", resolve))
  const address = failingEndpoint.address()
  failingUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/notify`
})
afterAll(async () => {
  await gateway.close()
  await new Promise((resolve) => failingEndpoint.close(resolve))
})

describe("a merchant's test clock", () => {
  it("keeps the sandbox working after an advance: a new order is CREATED, payable, and expires 2 hours later on the merchant's time", async () => {
    await ok(gateway.merchant(), "/acquire2/placeOrder", order(newNumber("before")))
    await gateway.advanceClock(600)
    const clock = await clockOf(gateway, "M1")
    expect(clock.offsetMinutes).toBe(600)
    expect(Math.abs(clock.now - (Date.now() + 600 * minuteMs))).toBeLessThan(5_000)

    const paid = newNumber("after")
    const created = await ok(gateway.merchant(), "/acquire2/placeOrder", order(paid))
    expect(created.acquireOrder.status).toBe("CREATED")
    expect(created.acquireOrder.expiredTime - created.acquireOrder.requestTime).toBe(2 * hourMs)
    expect(Math.abs(created.acquireOrder.requestTime - clock.now)).toBeLessThan(5_000)
    expect((await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo: paid })).head.code).toBe("0")

    const expiring = newNumber("expiring")
    await ok(gateway.merchant(), "/acquire2/placeOrder", order(expiring))
    await gateway.advanceClock(119)
    expect(
      (await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: expiring })).acquireOrder.status,
    ).toBe("CREATED")
    await gateway.advanceClock(2)
    expect(
      (await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: expiring })).acquireOrder.status,
    ).toBe("FAILURE")
  })

  it("reads an explicit expiredTime on the merchant's own clock: an hour from its now is an hour from its sandbox time", async () => {
    const no = newNumber("explicit")
    const created = await ok(gateway.merchant(), "/acquire2/placeOrder", {
      ...(order(no) as object),
      expiredTime: Date.now() + hourMs,
    } as never)
    expect(created.acquireOrder.expiredTime - created.acquireOrder.requestTime).toBeGreaterThan(hourMs - 5_000)
    expect(created.acquireOrder.expiredTime - created.acquireOrder.requestTime).toBeLessThanOrEqual(hourMs)
  })

  it("moves nobody else's time: B's orders, clock and notification retries stay on real time while A jumps a day", async () => {
    const before = await clockOf(gateway, "M2")
    const forB = newNumber("b")
    const forA = newNumber("a")
    await ok(gateway.merchant("M2"), "/acquire2/placeOrder", order(forB, failingUrl))
    await ok(gateway.merchant("M1"), "/acquire2/placeOrder", order(forA, failingUrl))
    await sandbox(gateway.merchant("M2"), "payOrder", { merchantOrderNo: forB })
    await sandbox(gateway.merchant("M1"), "payOrder", { merchantOrderNo: forA })
    // Each paid order is announced once at once, then retried 2 minutes later on its merchant's time.
    await waitUntil(
      () => (attemptsByOrder.get(forA) ?? 0) >= 1 && (attemptsByOrder.get(forB) ?? 0) >= 1,
      "first attempts",
    )

    await gateway.advanceClock(24 * 60, "M1")
    // A's retries run on A's day-later time: its next retry, 2 minutes after the first attempt, is due at once.
    await waitUntil(() => (attemptsByOrder.get(forA) ?? 0) >= 2, "A's retry")
    expect(attemptsByOrder.get(forB)).toBe(1)

    const after = await clockOf(gateway, "M2")
    expect(after.offsetMinutes).toBe(before.offsetMinutes)
    expect(Math.abs(after.now - Date.now())).toBeLessThan(5_000)
    const stillB = (await ok(gateway.merchant("M2"), "/acquire2/getOrder", { merchantOrderNo: forB })).acquireOrder
    expect(stillB.status).toBe("PAID_SUCCESS")
  })

  it("makes one retry due per advance, not the whole schedule: each is due its delay after the attempt before, on the merchant's time", async () => {
    const no = newNumber("retries")
    await ok(gateway.merchant("M1"), "/acquire2/placeOrder", order(no, failingUrl))
    await sandbox(gateway.merchant("M1"), "payOrder", { merchantOrderNo: no })
    await waitUntil(() => (attemptsByOrder.get(no) ?? 0) >= 1, "the first attempt")
    // A day covers the 2, 10, 10, 60, 120 and 360 minutes of retries 2 to 7, yet only retry 2 comes due...
    await gateway.advanceClock(24 * 60, "M1")
    await waitUntil(() => (attemptsByOrder.get(no) ?? 0) >= 2, "the second attempt")
    // ...and the third is due 10 minutes after it on M1's time: it carries that time, not the second's.
    await gateway.advanceClock(10, "M1")
    await waitUntil(() => (attemptsByOrder.get(no) ?? 0) >= 3, "the third attempt")
    const [, second = 0, third = 0] = attemptTimesByOrder.get(no) ?? []
    expect(third - second).toBeGreaterThanOrEqual(10 * minuteMs)
  })

  it("never goes back: resetClock is refused once the clock has moved, and answers an unmoved clock", async () => {
    const refusal = await sandbox(gateway.merchant("M1"), "resetClock", {})
    expect(refusal.head.code).toBe("400")
    expect(refusal.head.msg).toContain("never goes back")
    expect((await sandbox(gateway.merchant("M2"), "resetClock", {})).head.code).toBe("0")
  })

  it("never records a stream's history backwards, even for a member credited by a merchant a day ahead and by one on real time", async () => {
    const transfer = (partnerId: string) =>
      ok(gateway.merchant(partnerId), "/transfer/placeTransferOrder", {
        merchantOrderNo: newNumber("w"),
        beneficiaryIdentityType: "MEMBER_ID",
        beneficiaryIdentity: gateway.merchant(partnerId).encryptField("MEMBER-1"),
        amount: { amount: 1, currency: "AED" },
        memo: "clock",
      } as never)
    await transfer("M1")
    await transfer("M2")
    await transfer("M1")
    const lastRecordedAt = new Map<string, number>()
    for (const event of await gateway.allEvents()) {
      const previous = lastRecordedAt.get(event.streamId) ?? 0
      expect(event.metadata.recordedAt, `${event.streamId} v${event.streamVersion}`).toBeGreaterThanOrEqual(previous)
      lastRecordedAt.set(event.streamId, event.metadata.recordedAt)
    }
    expect([...lastRecordedAt.keys()].some((streamId) => streamId.startsWith("memberAccount/"))).toBe(true)
  })

  it("settles nothing by itself: a paid order and its refund stay as they are a week on, until the sandbox settles them", async () => {
    const paid = newNumber("unsettled")
    const refundMerchantOrderNo = newNumber("unsettled-refund")
    await ok(gateway.merchant("M1"), "/acquire2/placeOrder", order(paid))
    await sandbox(gateway.merchant("M1"), "payOrder", { merchantOrderNo: paid })
    await ok(gateway.merchant("M1"), "/acquire2/refund/placeOrder", {
      refundMerchantOrderNo,
      originMerchantOrderNo: paid,
      amount: { amount: 1, currency: "AED" },
    })
    await gateway.advanceClock(7 * 24 * 60, "M1")
    const statusOf = async () => [
      (await ok(gateway.merchant("M1"), "/acquire2/getOrder", { merchantOrderNo: paid })).acquireOrder.status,
      (await ok(gateway.merchant("M1"), "/acquire2/refund/getOrder", { refundMerchantOrderNo })).refundOrder.status,
    ]
    expect(await statusOf()).toEqual(["PAID_SUCCESS", "CREATED"])
    await sandbox(gateway.merchant("M1"), "settleOrder", { merchantOrderNo: paid })
    await sandbox(gateway.merchant("M1"), "settleRefund", { refundMerchantOrderNo })
    expect(await statusOf()).toEqual(["SETTLED", "REFUNDED_SETTLED"])
  })

  it("keeps the requestTime window on real time: a request sent now is no stale request on a clock a day ahead", async () => {
    // 62004 (no such order), not 400 REQUESTTIME_TOO_LATER: the window compares with real time.
    expect((await refused(gateway.merchant("M1"), "/acquire2/getOrder", { merchantOrderNo: "none" })).code).toBe(
      "62004",
    )
  })
})

describe("a merchant's test clock across a kill", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "mizan-test-clock-"))
  const configPath = join(dataDir, "config.json")
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const getClock = async (client: MerchantClient) =>
    (await sandbox(client, "getClock", {})).body as unknown as MerchantClock

  it("survives a SIGKILL: after the restart the merchant's time is not earlier, new events sort after old ones, and the audit finds no time going back", {
    timeout: 90_000,
  }, async () => {
    writeFileSync(configPath, JSON.stringify(testConfig({ merchants: [testMerchant("M1")], store: "sqlite:store.db" })))
    const port = await freePort()
    const first = await startService(configPath, port)
    const client = clientOf(dataDir, port)
    await call(client.call("/acquire2/placeOrder", order("restart-1")))
    expect((await sandbox(client, "advanceClock", { minutes: 600 })).head.code).toBe("0")
    await call(client.call("/acquire2/placeOrder", order("restart-2")))
    const beforeKill = await getClock(client)
    await stopService(first)

    const second = await startService(configPath, port)
    try {
      const afterRestart = await getClock(client)
      expect(afterRestart.offsetMinutes).toBe(600)
      expect(afterRestart.now).toBeGreaterThanOrEqual(beforeKill.now)
      const again = (await call(client.call("/acquire2/placeOrder", order("restart-3")))) as {
        acquireOrder: { requestTime: number }
      }
      const earlier = (await call(client.call("/acquire2/getOrder", { merchantOrderNo: "restart-2" } as never))) as {
        acquireOrder: { requestTime: number }
      }
      expect(again.acquireOrder.requestTime).toBeGreaterThan(earlier.acquireOrder.requestTime)
    } finally {
      await stopService(second)
    }

    const audit = await auditReplay(`sqlite:${join(dataDir, "store.db")}`, dataDir)
    expect(audit.stderr).toBe("")
    const report = JSON.parse(audit.stdout) as { ok: boolean; brokenInvariants: { total: number } }
    expect(report).toMatchObject({ ok: true, brokenInvariants: { total: 0 } })
    expect(audit.code).toBe(0)
  })
})
