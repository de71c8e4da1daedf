/**
 * The transfer side of the notifier's source, end to end: a real merchant
 * endpoint on loopback receives the signed notifications of wallet, bank
 * and bank card transfers (to the order's notifyUrl) and of virtual-account
 * top-ups (to the merchant's vamNotifyUrl), each carrying the order as the
 * query operation shows it as of that status change. Then
 * the notification source itself, over the recorded events.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { BankCardTransfer } from "@mizan/card-transfer"
import type { RecordedEvent } from "@mizan/eventsourcing"
import type { ReceivedNotification } from "@mizan/merchant-client"
import { notificationSource } from "@mizan/order-views"
import { sha256Hex } from "@mizan/protocol"
import { BankTransfer } from "@mizan/transfer"
import { Option, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ok } from "./calls.ts"
import { newNumber, startGateway, type TestGateway, testConfig, testMerchant } from "./harness.ts"
import { sandboxOk } from "./transferSupport.ts"

/** The merchant's endpoint: keeps what arrives and acknowledges it. */
interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

let endpoint: Server
let endpointUrl: string
const received: Array<Received> = []
let gateway: TestGateway

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) })
      response.writeHead(200, { "content-type": "application/json" }).end('{"response":"SUCCESS"}')
    })
  })
  await new Promise<void>((listening) => endpoint.listen(0, "127.0.0.1", listening))
  endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`
  const base = testConfig()
  gateway = await startGateway({
    config: {
      ...base,
      merchants: [testMerchant("M1", { vamNotifyUrl: `${endpointUrl}/vam` }), testMerchant("M2")],
    },
  })
})
afterAll(async () => {
  await gateway.close()
  await new Promise((closed) => endpoint.close(closed))
})

/** The verified notifications that arrived at a path, in arrival order. */
const notificationsAt = (path: string): Array<ReceivedNotification> =>
  received
    .filter((r) => r.path === path)
    .map((r) => {
      const verified = gateway.merchant().verifyNotification(r.headers as Record<string, string>, r.body)
      if (Result.isFailure(verified)) throw new Error(`a notification did not verify: ${verified.failure.message}`)
      return verified.success
    })

/** Waits until `count` notifications have arrived at a path (the notifier delivers in the background). */
const awaitNotifications = async (path: string, count: number, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  while (notificationsAt(path).length < count) {
    if (Date.now() > deadline)
      throw new Error(`expected ${count} notifications at ${path}, got ${notificationsAt(path).length}`)
    await new Promise((tick) => setTimeout(tick, 25))
  }
  return notificationsAt(path)
}

const client = () => gateway.merchant()

/** Places M1's bank transfer to Amal Saeed's IBAN; the order has a notifyUrl only when one is given. */
const placeBankTransfer = (
  merchantOrderNo: string,
  { amount, memo, notifyUrl }: { readonly amount: number; readonly memo: string; readonly notifyUrl?: string },
) =>
  ok(client(), "/transfer/placeTransferToBankOrder", {
    merchantOrderNo,
    holderName: client().encryptField("Amal Saeed"),
    iban: client().encryptField("AE070331234567890123456"),
    amount: { amount, currency: "AED" },
    memo,
    ...(notifyUrl === undefined ? {} : { notifyUrl }),
  })

describe("notifications of transfers, delivered to a merchant's endpoint", () => {
  it("tells a bank transfer's notifyUrl of its move from CREATED to SUCCESS, with the order as the query shows it", async () => {
    const no = newNumber("b")
    const path = `/bank/${no}`
    await placeBankTransfer(no, { amount: 300, memo: "Invoice 9", notifyUrl: `${endpointUrl}${path}` })
    await sandboxOk(client(), "completeBankTransfer", { merchantOrderNo: no, bankReference: "FT-77" })
    const [notification] = await awaitNotifications(path, 1)
    const { transferToBankOrder } = await ok(client(), "/transfer/getTransferToBankOrder", { merchantOrderNo: no })
    expect(notification).toMatchObject({ orderKey: "transferToBankOrder", order: transferToBankOrder })
    expect(transferToBankOrder.status).toBe("SUCCESS")
  })

  it("tells a bank transfer's notifyUrl of a FAILURE", async () => {
    const no = newNumber("b")
    const path = `/bank/${no}`
    await placeBankTransfer(no, { amount: 300, memo: "Invoice 10", notifyUrl: `${endpointUrl}${path}` })
    await sandboxOk(client(), "failBankTransfer", { merchantOrderNo: no, failDes: "Account closed" })
    const [notification] = await awaitNotifications(path, 1)
    expect(notification?.order).toMatchObject({ merchantOrderNo: no, status: "FAILURE", failDes: "Account closed" })
  })

  it("tells a wallet transfer's notifyUrl of its SUCCESS, and of a FAILURE decided at placement", async () => {
    for (const [amount, status] of [
      [10, "SUCCESS"],
      [10_001, "FAILURE"],
    ] as const) {
      const no = newNumber("w")
      const path = `/wallet/${no}`
      const placed = await ok(client(), "/transfer/placeTransferOrder", {
        merchantOrderNo: no,
        beneficiaryIdentityType: "MEMBER_ID",
        beneficiaryIdentity: sha256Hex("MEMBER-1"),
        amount: { amount, currency: "AED" },
        memo: "Payout",
        notifyUrl: `${endpointUrl}${path}`,
      })
      const [notification] = await awaitNotifications(path, 1)
      expect(notification).toMatchObject({ orderKey: "transferOrder", order: { ...placed.transferOrder, status } })
    }
  })

  it("tells a bank card transfer's notifyUrl of each change: BANK_FAIL, then the payout's return", async () => {
    const no = newNumber("c")
    const path = `/card/${no}`
    await ok(client(), "/transfer/placeTransferToBankCard", {
      merchantOrderNo: no,
      accountHolderType: "INDIVIDUAL",
      firstName: client().encryptField("Amal"),
      lastName: client().encryptField("Saeed"),
      cardNumber: client().encryptField("4111111111111111"),
      expiryYear: client().encryptField(String(new Date().getUTCFullYear() + 1)),
      expiryMonth: client().encryptField("12"),
      amount: { amount: 80, currency: "AED" },
      notifyUrl: `${endpointUrl}${path}`,
    })
    await sandboxOk(client(), "declineBankCardTransfer", {
      merchantOrderNo: no,
      failDes: "Do not honour",
      payoutReturned: true,
    })
    const [declined, returned] = await awaitNotifications(path, 2)
    expect(declined).toMatchObject({ orderKey: "transferBankCardOrder", order: { status: "BANK_FAIL" } })
    // Each notification shows the order as of its own change.
    expect(declined?.order).not.toHaveProperty("refundedTime")
    expect(returned?.order).toMatchObject({ status: "BANK_FAIL", refundedTime: expect.any(Number) })
  })

  it("tells the merchant's vamNotifyUrl of a top-up at each status", async () => {
    const pending = await sandboxOk<{ vamDepositOrder: { orderNo: string } }>(client(), "postDeposit", {
      amount: { amount: 99.5, currency: "AED" },
      status: "PENDING",
      referenceNo: "VAM-1",
    })
    const { orderNo } = pending.vamDepositOrder
    await sandboxOk(client(), "settleDeposit", { orderNo, status: "SUCCESS" })
    const deadline = Date.now() + 10_000
    const ofDeposit = () => notificationsAt("/vam").filter((n) => (n.order as { orderNo?: string }).orderNo === orderNo)
    while (ofDeposit().length < 2 && Date.now() < deadline) await new Promise((tick) => setTimeout(tick, 25))
    expect(ofDeposit().map((n) => [n.orderKey, (n.order as { status: string }).status])).toEqual([
      ["vamDepositOrder", "PENDING"],
      ["vamDepositOrder", "SUCCESS"],
    ])
    expect(ofDeposit()[1]?.order).toMatchObject({ orderNo, amount: 9_950, referenceNo: "VAM-1" })
  })
})

describe("the notification source, on transfer events", () => {
  const describeEvent = (event: RecordedEvent) => gateway.run(notificationSource.describe(event))
  const eventsOf = async (streamId: string) =>
    (await gateway.allEvents()).filter((event) => event.streamId === streamId)

  it("announces nothing at placement, nor for an order whose request had no notifyUrl", async () => {
    const no = newNumber("b")
    await placeBankTransfer(no, { amount: 1, memo: "no url" })
    await sandboxOk(client(), "completeBankTransfer", { merchantOrderNo: no, bankReference: "FT-0" })
    const events = await eventsOf(BankTransfer.streamId("M1", no))
    expect(events.map((e) => e.type)).toEqual(["BankTransferPlaced", "BankTransferSucceeded"])
    for (const event of events) expect(Option.isNone(await describeEvent(event))).toBe(true)
  })

  it("orders an order's notifications by its stream and shows the order as of each event", async () => {
    const no = newNumber("c")
    await ok(client(), "/transfer/placeTransferToBankCard", {
      merchantOrderNo: no,
      accountHolderType: "CORPORATE",
      companyName: client().encryptField("Falcon Trading LLC"),
      cardNumber: client().encryptField("5555555555554444"),
      expiryYear: client().encryptField(String(new Date().getUTCFullYear() + 2)),
      expiryMonth: client().encryptField("01"),
      amount: { amount: 10, currency: "AED" },
      notifyUrl: "http://127.0.0.1:9/never-answers",
    })
    await sandboxOk(client(), "failBankCardTransfer", { merchantOrderNo: no, failDes: "Network error" })
    await sandboxOk(client(), "returnBankCardPayout", { merchantOrderNo: no })
    const [placed, failed, returned] = await eventsOf(BankCardTransfer.streamId("M1", no))
    expect(Option.isNone(await describeEvent(placed as RecordedEvent))).toBe(true)
    const onFailure = Option.getOrThrow(await describeEvent(failed as RecordedEvent))
    expect(onFailure).toMatchObject({
      merchantId: "M1",
      notifyUrl: "http://127.0.0.1:9/never-answers",
      orderKey: "transferBankCardOrder",
      orderingKey: failed?.streamId,
      // Wire form: amounts as JSON numbers, the card as its digest.
      order: { status: "FAILURE", amount: { amount: 10, currency: "AED" }, cardNumber: sha256Hex("5555555555554444") },
    })
    expect(onFailure.order).not.toHaveProperty("refundedTime")
    const onReturn = Option.getOrThrow(await describeEvent(returned as RecordedEvent))
    expect(onReturn.order).toMatchObject({ status: "FAILURE", refundedTime: expect.any(Number) })
  })

  it("ignores events of other kinds", async () => {
    const event = (await gateway.allEvents()).find((e) => e.type === "OrderNumberIssued")
    expect(event).toBeDefined()
    expect(Option.isNone(await describeEvent(event as RecordedEvent))).toBe(true)
  })
})
