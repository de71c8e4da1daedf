/**
 * Virtual-account top-ups through the sandbox's bank (spec: Event "virtual
 * account top-up", `vamDepositOrder`): posted for the calling merchant,
 * final at once or PENDING and settled later, idempotent, and final once
 * final. The announcement to the merchant's vamNotifyUrl is tested in
 * announceTransfers.spec.ts.
 */
import { sha256Hex } from "@mizan/protocol"
import { describe, expect, it } from "vitest"
import { suiteGateway } from "./suiteGateway.ts"
import { sandboxOk, sandboxRefused, storedText } from "./transferSupport.ts"

const gateway = suiteGateway()

interface DepositAnswer {
  readonly vamDepositOrder: {
    readonly orderNo: string
    readonly status: string
    readonly amount: { readonly amount: number; readonly currency: string }
    readonly transactionTime: number
    readonly [field: string]: unknown
  }
}

const remitter = "Khalid Al Mansoori"
const collectIban = "AE460330000010123456789"

const post = (fields: Record<string, unknown> = {}, partnerId = "M1") =>
  sandboxOk<DepositAnswer>(gateway.merchant(partnerId), "postDeposit", {
    amount: { amount: 750.25, currency: "AED" },
    status: "SUCCESS",
    ...fields,
  })

const settle = (orderNo: string, status: string, partnerId = "M1") =>
  sandboxOk<DepositAnswer>(gateway.merchant(partnerId), "settleDeposit", { orderNo, status })

const refusedSettle = (orderNo: string, status: string, partnerId = "M1") =>
  sandboxRefused(gateway.merchant(partnerId), "settleDeposit", { orderNo, status })

describe("virtual-account deposit", () => {
  it("posts a top-up with the bank's details, the remitter and collection IBAN kept as digests", async () => {
    const transactionTime = Date.now() - 5_000
    const { vamDepositOrder } = await post({
      transactionTime,
      referenceNo: "REF-2026-0001",
      remitterInfo: remitter,
      senderBankCode: "EBILAEAD",
      depositDetails: "Top-up for March",
      collectIBAN: collectIban,
    })
    // The sandbox answers in the wire's own form, in AED; the merchant client gives a decimal as its exact text.
    expect(vamDepositOrder).toEqual({
      orderNo: expect.stringMatching(/^\d{14}6\d{11}$/),
      transactionTime,
      amount: { amount: "750.25", currency: "AED" },
      status: "SUCCESS",
      referenceNo: "REF-2026-0001",
      remitterInfo: sha256Hex(remitter),
      senderBankCode: "EBILAEAD",
      depositDetails: "Top-up for March",
      collectIBAN: sha256Hex(collectIban),
    })
    const stored = await storedText(gateway)
    expect(stored).not.toContain(remitter)
    expect(stored).not.toContain(collectIban)
  })

  it("posts a failed top-up as FAILED", async () => {
    expect((await post({ status: "FAILED" })).vamDepositOrder.status).toBe("FAILED")
  })

  it("settles a PENDING top-up once: the same status again changes nothing, another is refused", async () => {
    const { vamDepositOrder } = await post({ status: "PENDING" })
    expect(vamDepositOrder.status).toBe("PENDING")
    const settled = await settle(vamDepositOrder.orderNo, "SUCCESS")
    expect(settled.vamDepositOrder).toMatchObject({ orderNo: vamDepositOrder.orderNo, status: "SUCCESS" })
    expect((await settle(vamDepositOrder.orderNo, "SUCCESS")).vamDepositOrder).toEqual(settled.vamDepositOrder)
    expect(await refusedSettle(vamDepositOrder.orderNo, "FAILED")).toMatchObject({ code: "62028" })
  })

  it("keeps a FAILED top-up failed: 62002 for a later SUCCESS", async () => {
    const { vamDepositOrder } = await post({ status: "PENDING" })
    await settle(vamDepositOrder.orderNo, "FAILED")
    expect(await refusedSettle(vamDepositOrder.orderNo, "SUCCESS")).toMatchObject({ code: "62002" })
  })

  it("answers 62035 for a deposit that does not exist, and for another merchant's deposit", async () => {
    expect(await refusedSettle("20260101000000600000000000", "SUCCESS")).toMatchObject({ code: "62035" })
    const { vamDepositOrder } = await post({ status: "PENDING" })
    expect(await refusedSettle(vamDepositOrder.orderNo, "SUCCESS", "M2")).toMatchObject({ code: "62035" })
  })

  it.each([
    ["a zero amount", { amount: { amount: 0, currency: "AED" } }, "bizContent.amount"],
    ["an unknown status", { status: "REVERSED" }, "bizContent.status"],
    ["a referenceNo over 200 characters", { referenceNo: "r".repeat(201) }, "bizContent.referenceNo"],
  ])("refuses %s with 400 naming the field", async (_case, fields, field) => {
    const head = await sandboxRefused(gateway.merchant(), "postDeposit", {
      amount: { amount: 1, currency: "AED" },
      status: "SUCCESS",
      ...fields,
    })
    expect(head).toMatchObject({ code: "400" })
    expect(head.msg).toContain(field)
  })

  it("refuses to settle to PENDING with 400", async () => {
    const { vamDepositOrder } = await post({ status: "PENDING" })
    expect(await refusedSettle(vamDepositOrder.orderNo, "PENDING")).toMatchObject({ code: "400" })
  })
})
