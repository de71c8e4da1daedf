import { createServer, type Server } from "node:http"
import type { ReceivedNotification } from "@mizan/merchant-client"
import { Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ok, sandbox } from "./calls.ts"
import { startGateway, type TestGateway } from "./harness.ts"

/** The merchant's notification endpoint: verifies each signature with the service's public key, then acknowledges. */
let endpoint: Server
let endpointUrl: string
const received: Array<ReceivedNotification> = []
const acquireOrders = () => received.flatMap((n) => (n.orderKey === "acquireOrder" ? [n.order] : []))
const refundOrders = () => received.flatMap((n) => (n.orderKey === "refundOrder" ? [n.order] : []))
let gateway: TestGateway

beforeAll(async () => {
  gateway = await startGateway()
  const client = gateway.merchant()
  endpoint = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const verified = client.verifyNotification(request.headers, Buffer.concat(chunks))
      if (Result.isFailure(verified)) {
        response.writeHead(400).end("bad signature")
        return
      }
      received.push(verified.success)
      response.writeHead(200, { "content-type": "application/json" }).end('{"response":"SUCCESS"}')
    })
  })
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve))
  const address = endpoint.address()
  endpointUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/notify`
})
afterAll(async () => {
  await gateway.close()
  await new Promise((resolve) => endpoint.close(resolve))
})

const waitFor = async <T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const found = find()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("nothing arrived in time")
}

describe("notifications of payment orders and refunds", () => {
  it("announces each status change of an order with notifyUrl, signed, with the order as get order shows it", {
    timeout: 20_000,
  }, async () => {
    const merchantOrderNo = `n-${Date.now()}`
    await ok(gateway.merchant(), "/acquire2/placeOrder", {
      merchantOrderNo,
      subject: "Notified",
      totalAmount: { amount: 25, currency: "AED" },
      paySceneCode: "PAYPAGE",
      notifyUrl: endpointUrl,
    } as never)
    await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo })
    const paid = await waitFor(() =>
      received.find(
        (n) =>
          n.orderKey === "acquireOrder" &&
          n.order.merchantOrderNo === merchantOrderNo &&
          n.order.status === "PAID_SUCCESS",
      ),
    )
    const { acquireOrder } = await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo })
    expect(paid.order).toEqual(acquireOrder)
    expect(paid.notifyId).toMatch(/^[0-9a-f]{32}$/)

    await sandbox(gateway.merchant(), "settleOrder", { merchantOrderNo })
    await waitFor(() => acquireOrders().find((o) => o.merchantOrderNo === merchantOrderNo && o.status === "SETTLED"))
    const statuses = acquireOrders()
      .filter((o) => o.merchantOrderNo === merchantOrderNo)
      .map((o) => o.status)
    expect(statuses).toEqual(["PAID_SUCCESS", "SETTLED"])
  })

  it("announces a refund's status changes to the refund's own notifyUrl", { timeout: 20_000 }, async () => {
    const merchantOrderNo = `n-${Date.now()}-r`
    const refundMerchantOrderNo = `${merchantOrderNo}-refund`
    await ok(gateway.merchant(), "/acquire2/placeOrder", {
      merchantOrderNo,
      subject: "Refunded",
      totalAmount: { amount: 25, currency: "AED" },
      paySceneCode: "PAYPAGE",
    } as never)
    await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo })
    await ok(gateway.merchant(), "/acquire2/refund/placeOrder", {
      refundMerchantOrderNo,
      originMerchantOrderNo: merchantOrderNo,
      amount: { amount: 5, currency: "AED" },
      notifyUrl: endpointUrl,
    } as never)
    await sandbox(gateway.merchant(), "completeRefund", { refundMerchantOrderNo })
    const done = await waitFor(() =>
      refundOrders().find((o) => o.refundMerchantOrderNo === refundMerchantOrderNo && o.status === "SUCCESS"),
    )
    expect(done).toMatchObject({ amount: 500, originMerchantOrderNo: merchantOrderNo })
    // completeRefund on a CREATED refund settles it on the way, and each status is announced, in order.
    const announced = refundOrders().filter((o) => o.refundMerchantOrderNo === refundMerchantOrderNo)
    expect(announced.map((o) => o.status)).toEqual(["REFUNDED_SETTLED", "SUCCESS"])
    // The order itself had no notifyUrl: nothing about it was announced.
    expect(acquireOrders().some((o) => o.merchantOrderNo === merchantOrderNo)).toBe(false)
  })
})
