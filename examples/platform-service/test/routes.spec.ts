import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { orderLifecycle, type RunningService, startService } from "./service.ts"

describe("the service's routes, over HTTP, on the default SQLite store", () => {
  const folder = mkdtempSync(join(tmpdir(), "platform-service-"))
  const setting = `sqlite:${join(folder, "platform.db")}`
  let service: RunningService
  beforeAll(async () => {
    service = await startService(setting)
  })
  afterAll(async () => {
    await service.stop()
    rmSync(folder, { recursive: true, force: true })
  })

  it("creates, pays, refunds part of an order and reads it back in its own JSON shape", async () => {
    const { created, paid, refunded, completed, read } = await orderLifecycle(service)
    expect(created).toMatchObject({ status: 201, body: { orderId: "order-1", status: "CREATED", paidFils: 0 } })
    expect(paid).toMatchObject({ status: 200, body: { status: "PAID_SUCCESS", paidFils: 10_000 } })
    expect(refunded).toMatchObject({ status: 201, body: { pendingRefundFils: 2_500, refundableFils: 7_500 } })
    expect(completed.status).toBe(204)
    expect(read).toEqual({
      status: 200,
      body: {
        orderId: "order-1",
        status: "PAID_SUCCESS",
        amountFils: 10_000,
        description: "Team plan",
        paidFils: 10_000,
        refundedFils: 2_500,
        pendingRefundFils: 0,
        refundableFils: 7_500,
        refunds: [{ refundId: "refund-1", amountFils: 2_500, status: "SUCCEEDED" }],
      },
    })
  })

  it("refuses a refund above what remains refundable with 409 and Mizan's code", async () => {
    const answer = await service.call("POST", "/orders/order-1/refunds", { refundId: "refund-2", amountFils: 7_501 })
    expect(answer).toMatchObject({ status: 409, body: { error: "REFUND_AMOUNT_EXCEEDED" } })
  })

  it("refuses a refund of an order that was never paid with 409", async () => {
    await service.call("POST", "/orders", { orderId: "unpaid", amountFils: 500, description: "Seat" })
    const answer = await service.call("POST", "/orders/unpaid/refunds", { refundId: "refund-3", amountFils: 100 })
    expect(answer.status).toBe(409)
  })

  it("answers 404 for an order that does not exist", async () => {
    expect((await service.call("GET", "/orders/nobody")).status).toBe(404)
  })

  it("answers 400 naming the field when an amount is not a positive whole number of fils", async () => {
    const answer = await service.call("POST", "/orders", { orderId: "bad", amountFils: 10.5, description: "Seat" })
    expect(answer.status).toBe(400)
    expect(answer.body?.message).toContain("amountFils")
  })

  it("answers 400 for a body that is not JSON", async () => {
    expect((await service.call("POST", "/orders", "{not json")).status).toBe(400)
  })

  it("keeps its orders across a restart on the same SQLite file", async () => {
    const again = await startService(setting)
    try {
      expect((await again.call("GET", "/orders/order-1")).body).toMatchObject({ refundedFils: 2_500 })
    } finally {
      await again.stop()
    }
  })
})
