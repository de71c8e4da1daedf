import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { ok, refused, sandbox } from "./calls.ts"
import { newNumber } from "./harness.ts"
import { waitUntil } from "./merchantEndpoint.ts"
import { suiteGateway } from "./suiteGateway.ts"

const gateway = suiteGateway()

const createOrder = (merchantOrderNo: string, overrides: Record<string, unknown> = {}) =>
  ok(gateway.merchant(), "/acquire2/placeOrder", {
    merchantOrderNo,
    subject: "Coffee beans",
    totalAmount: { amount: 100, currency: "AED" },
    paySceneCode: "PAYPAGE",
    notifyUrl: "http://127.0.0.1:9/notify",
    ...overrides,
  } as never)

/** The least an order needs besides its number: AED 1.00, no notifyUrl. */
const minimalOrder = { subject: "x", totalAmount: { amount: 1, currency: "AED" }, paySceneCode: "PAYPAGE" }

/** How create order refuses a minimal order (fails the test if it is accepted); fields overridable. */
const createRefusal = (merchantOrderNo: string, overrides: Record<string, unknown> = {}) =>
  refused(gateway.merchant(), "/acquire2/placeOrder", { merchantOrderNo, ...minimalOrder, ...overrides } as never)

/** The code create order refuses a minimal order with. */
const createRefusalCode = async (merchantOrderNo: string, overrides: Record<string, unknown> = {}) =>
  (await createRefusal(merchantOrderNo, overrides)).code

/** A refund request of `amount` AED of an order, under a refund number no other test uses. */
const refundOf = (originMerchantOrderNo: string, amount = 1) =>
  ({ refundMerchantOrderNo: newNumber("r"), originMerchantOrderNo, amount: { amount, currency: "AED" } }) as never

describe("create order", () => {
  it("creates a CREATED order with a pay page link, expiring 2 hours after requestTime by default", async () => {
    const no = newNumber("o")
    const body = await createOrder(no)
    expect(body.acquireOrder).toMatchObject({
      merchantOrderNo: no,
      status: "CREATED",
      totalAmount: 10_000,
      subject: "Coffee beans",
      revoked: "false",
      payeeMid: "M1",
    })
    expect(body.acquireOrder.expiredTime - body.acquireOrder.requestTime).toBe(2 * 3_600_000)
    expect(body.interactionParams?.tokenUrl).toMatch(/\/pay\/[A-Za-z0-9_-]+$/)
    expect(body.acquireOrder.orderNo).toMatch(/^\d{14}1\d{11}$/)
  })

  it("gives each scene the interactionParams the spec's table names: a link, a wallet's deep link, a 3-D Secure form", async () => {
    const paramsFor = async (paySceneCode: string) =>
      (await createOrder(newNumber("o"), { paySceneCode })).interactionParams ?? {}
    for (const linkScene of ["PAYPAGE", "INAPP", "DYNQR", "CASHTOPUP", "JSAPI", "PAYANDSIGN"])
      expect(Object.keys(await paramsFor(linkScene)), linkScene).toEqual(["tokenUrl"])
    const wallet = await paramsFor("EWALLET")
    expect(Object.keys(wallet)).toEqual(["deepLink"])
    // The deep link carries the pay page's token: the same order opens at /pay/<token>.
    const token = decodeURIComponent(wallet.deepLink?.match(/^mizan:\/\/pay\?token=(.+)$/)?.[1] ?? "")
    expect(token).not.toBe("")
    const page = await fetch(`${gateway.baseUrl}/pay/${token}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Coffee beans")
    const direct = await paramsFor("DIRECTPAY")
    expect(direct.tokenUrl).toBeUndefined()
    expect(direct.threeDSecureDom).toMatch(/^<form id="threeDSecure" method="POST" action="[^"]+\/pay\/[^"]+\/3ds">/)
  })

  it.each(["AUTODEBIT", "QRPAY"])("answers no interactionParams for %s, as the spec says", async (paySceneCode) => {
    const body = await createOrder(newNumber("o"), { paySceneCode })
    expect(body.acquireOrder.status).toBe("CREATED")
    expect(body).not.toHaveProperty("interactionParams")
  })

  it("takes payeeMid naming the calling merchant, and refuses any other payee with 400 naming the field", async () => {
    const own = await createOrder(newNumber("o"), { payeeMid: "M1" })
    expect(own.acquireOrder.payeeMid).toBe("M1")
    for (const payeeMid of ["M2", "NOBODY"]) {
      const refusal = await refused(gateway.merchant(), "/acquire2/placeOrder", {
        merchantOrderNo: newNumber("o"),
        ...minimalOrder,
        payeeMid,
      } as never)
      expect(refusal, payeeMid).toMatchObject({ code: "400", msg: expect.stringContaining("bizContent.payeeMid") })
    }
  })

  it("answers a repeat with the same order and its first orderNo, and 62016 for other parameters while CREATED", async () => {
    const no = newNumber("o")
    const first = await createOrder(no)
    const again = await createOrder(no)
    expect(again.acquireOrder.orderNo).toBe(first.acquireOrder.orderNo)
    expect(
      await refused(gateway.merchant(), "/acquire2/placeOrder", {
        merchantOrderNo: no,
        subject: "Coffee beans",
        totalAmount: { amount: 200, currency: "AED" },
        paySceneCode: "PAYPAGE",
      } as never),
    ).toMatchObject({ code: "62016" })
  })

  it("answers 62001, 62003 and 62002 for a used number of a paid, settled or failed order", async () => {
    const paid = newNumber("o")
    await createOrder(paid)
    await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo: paid })
    expect(await createRefusalCode(paid)).toBe("62001")
    await sandbox(gateway.merchant(), "settleOrder", { merchantOrderNo: paid })
    expect(await createRefusalCode(paid)).toBe("62003")
    const cancelled = newNumber("o")
    await createOrder(cancelled)
    await ok(gateway.merchant(), "/acquire2/cancelOrder", { merchantOrderNo: cancelled })
    expect(await createRefusalCode(cancelled)).toBe("62002")
  })

  it("answers 62008, 62009 and 62012 for expiry before the request, beyond 48 hours, and an unknown scene", async () => {
    const requestTime = Date.now()
    expect(await createRefusalCode(newNumber("o"), { expiredTime: requestTime - 1000 })).toBe("62008")
    expect(await createRefusalCode(newNumber("o"), { expiredTime: requestTime + 49 * 3_600_000 })).toBe("62009")
    expect(await createRefusalCode(newNumber("o"), { paySceneCode: "TELEPATHY" })).toBe("62012")
  })

  it("names a field its rules refuse as its schema's refusal does, from bizContent; the envelope's requestTime bare", async () => {
    const requestTime = Date.now()
    expect(await createRefusal(newNumber("o"), { expiredTime: requestTime - 1000 })).toMatchObject({
      msg: "EXPIREDTIME_LESS_THAN_REQUESTTIME: bizContent.expiredTime must be after requestTime",
    })
    expect(await createRefusal(newNumber("o"), { expiredTime: requestTime + 49 * 3_600_000 })).toMatchObject({
      msg: "EXPIREDTIME_TOO_LATER: bizContent.expiredTime must be at most 48 hours after requestTime",
    })
    expect((await createRefusal(newNumber("o"), { expiredTime: "soon" })).msg).toMatch(
      /^INVALID_PARAMETER: bizContent\.expiredTime /,
    )
    expect((await createRefusal(newNumber("o"), { paySceneCode: "TELEPATHY" })).msg).toMatch(
      /^PAYSCENECODE_ILLEGAL: bizContent\.paySceneCode must be one of PAYPAGE, /,
    )
    expect(await createRefusal(newNumber("o"), { secondaryMerchantId: "SUB-1" })).toMatchObject({
      msg: "INVALID_PARAMETER: bizContent.deviceId is required with secondaryMerchantId",
    })
  })

  it("takes what real clients send: 0.10, escaped slashes, keys in any order, empty accessoryContent parts, unknown fields", async () => {
    const no = newNumber("o")
    const body = await createOrder(no, {
      totalAmount: { currency: "AED", amount: "0.10" },
      notifyUrl: "https://merchant.example/notify",
      accessoryContent: { amountDetail: {}, goodsDetail: {}, terminalDetail: {} },
      somethingNew: { a: 1 },
    })
    expect(body.acquireOrder.totalAmount).toBe(10)
    expect(body.acquireOrder.accessoryContent).toEqual({ amountDetail: {}, goodsDetail: {}, terminalDetail: {} })
    expect(JSON.stringify(body)).not.toContain("somethingNew")
  })

  it("keeps sharing identities only as digests and answers each item's settled amounts after payment", async () => {
    const no = newNumber("o")
    const client = gateway.merchant()
    await createOrder(no, {
      sharingParamList: [
        {
          sharingIdentitySeqId: 1,
          sharingIdentityType: "PHONE_NO",
          sharingIdentity: client.encryptField("971500000009"),
          sharingMemo: "partner",
          sharingAmount: { amount: 30, currency: "AED" },
        },
      ],
    })
    const paid = await sandbox(client, "payOrder", { merchantOrderNo: no })
    expect(paid.head.code).toBe("0")
    const order = (await ok(client, "/acquire2/getOrder", { merchantOrderNo: no })).acquireOrder
    expect(order.status).toBe("PAID_SUCCESS")
    const item = order.sharingInfoList?.[0]
    expect(item?.sharingAmount).toBe(3_000)
    const payment = order.paymentInfo
    // 1.5% + 0.50 of 100.00 is 2.00, all of it borne by the payee here.
    expect(payment?.payeeFeeAmount).toBe(200)
    expect((payment?.settlementAmount ?? 0) + (item?.sharingSettledAmount ?? 0) + (payment?.payeeFeeAmount ?? 0)).toBe(
      10_000,
    )
    const stored = JSON.stringify((await gateway.allEvents()).map((e) => e.data))
    expect(stored).not.toContain("971500000009")
  })
})

describe("sharingMid: the member a sharing identity matches", () => {
  const sharingItem = (seqId: number, type: "PHONE_NO" | "MEMBER_ID", identity: string) => ({
    sharingIdentitySeqId: seqId,
    sharingIdentityType: type,
    sharingIdentity: identity,
    sharingMemo: `partner ${seqId}`,
    sharingAmount: { amount: 10, currency: "AED" },
  })

  it("names the member a phone digest, an encrypted member id or an unknown identity matches, in the order and its refund", async () => {
    const no = newNumber("o")
    const client = gateway.merchant()
    const created = await createOrder(no, {
      sharingParamList: [
        // MEMBER-2 of the sandbox by the SHA-256 of its phone number, MEMBER-1 by its id encrypted, then nobody.
        sharingItem(1, "PHONE_NO", createHash("sha256").update("971500000002").digest("hex")),
        sharingItem(2, "MEMBER_ID", client.encryptField("MEMBER-1")),
        sharingItem(3, "PHONE_NO", client.encryptField("971500000099")),
      ],
    })
    expect(created.acquireOrder.sharingInfoList?.map((item) => item.sharingMid)).toEqual(["MEMBER-2", "MEMBER-1", ""])
    await sandbox(client, "payOrder", { merchantOrderNo: no })
    const refund = await ok(client, "/acquire2/refund/placeOrder", {
      refundMerchantOrderNo: newNumber("r"),
      originMerchantOrderNo: no,
      amount: { amount: 30, currency: "AED" },
      refundSharingAmount: true,
    })
    const mids = new Map(
      refund.refundOrder.sharingInfoList?.map((item) => [item.sharingIdentitySeqId, item.sharingMid]),
    )
    expect(mids.get(1)).toBe("MEMBER-2")
    expect(mids.get(2)).toBe("MEMBER-1")
  })
})

describe("get order and payer", () => {
  it("finds an order by merchantOrderNo or by orderNo, and answers 62004 / 62035 when there is none", async () => {
    const no = newNumber("o")
    const created = await createOrder(no)
    const byNumber = await ok(gateway.merchant(), "/acquire2/getOrder", { orderNo: created.acquireOrder.orderNo })
    expect(byNumber.acquireOrder.merchantOrderNo).toBe(no)
    // Either number names the field sent, alike, and neither repeats the number: the merchant has it.
    expect(await refused(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: "missing" })).toMatchObject({
      code: "62004",
      msg: "MERCHANT_ORDER_NO_NOT_EXIST: bizContent.merchantOrderNo names no order of this merchant",
    })
    expect(
      await refused(gateway.merchant(), "/acquire2/getOrder", { orderNo: "00000000000000100000000000" }),
    ).toMatchObject({ code: "62035", msg: "ORDER_NO_NOT_EXIST: bizContent.orderNo names no order of this merchant" })
    expect(
      (
        await refused(gateway.merchant(), "/acquire2/getOrder", {
          merchantOrderNo: no,
          orderNo: created.acquireOrder.orderNo,
        })
      ).code,
    ).toBe("400")
  })

  it("never lets one merchant see or touch another's order", async () => {
    const no = newNumber("o")
    const created = await createOrder(no)
    const other = gateway.merchant("M2")
    expect((await refused(other, "/acquire2/getOrder", { merchantOrderNo: no })).code).toBe("62004")
    expect((await refused(other, "/acquire2/getOrder", { orderNo: created.acquireOrder.orderNo })).code).toBe("62035")
    expect((await refused(other, "/acquire2/cancelOrder", { merchantOrderNo: no })).code).toBe("62004")
    expect((await refused(other, "/acquire2/refund/placeOrder", refundOf(no))).code).toBe("62004")
    expect((await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: no })).acquireOrder.status).toBe(
      "CREATED",
    )
  })

  it("answers the payer of a paid order, and 62015 before it is paid", async () => {
    const no = newNumber("o")
    await createOrder(no)
    expect((await refused(gateway.merchant(), "/acquire2/getOrderPayer", { merchantOrderNo: no })).code).toBe("62015")
    await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo: no, payerMid: "PAYER42" })
    const { payer } = await ok(gateway.merchant(), "/acquire2/getOrderPayer", { merchantOrderNo: no })
    expect(payer).toMatchObject({ payerMid: "PAYER42", mobileNumberMask: expect.stringContaining("*") })
  })
})

describe("expiry, cancel and revoke", () => {
  it("reads an order past its expiredTime as FAILURE, and closes it without being asked", async () => {
    const read = newNumber("o")
    const swept = newNumber("o")
    await createOrder(read, { expiredTime: Date.now() + 60_000 })
    await createOrder(swept, { expiredTime: Date.now() + 60_000 })
    await gateway.advanceClock(2)
    expect((await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: read })).acquireOrder).toMatchObject({
      status: "FAILURE",
      failCode: "ORDER_EXPIRED",
    })
    const paid = await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo: read })
    expect(paid.head.code).toBe("62002")
    // Nobody reads the other order: the sweep (once a second) closes it on its own.
    const sweptTypes = async () =>
      (await gateway.allEvents()).filter((e) => e.streamId === `acquiring-2-M1-${swept}`).map((e) => e.type)
    await waitUntil(async () => (await sweptTypes()).length === 2, "the sweep closes the unread order", 10_000)
    expect(await sweptTypes()).toEqual(["OrderCreated", "OrderClosed"])
  })

  it("cancels an unpaid order, and answers 62001 for a paid one", async () => {
    const no = newNumber("o")
    await createOrder(no)
    expect((await ok(gateway.merchant(), "/acquire2/cancelOrder", { merchantOrderNo: no })).acquireOrder).toMatchObject(
      { status: "FAILURE", failCode: "ORDER_CANCELLED" },
    )
    const paid = newNumber("o")
    await createOrder(paid)
    await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo: paid })
    expect((await refused(gateway.merchant(), "/acquire2/cancelOrder", { merchantOrderNo: paid })).code).toBe("62001")
  })

  it("revokes a paid order into FAILURE with revoked true and a full refund order; revoking twice changes nothing", async () => {
    const no = newNumber("o")
    await createOrder(no)
    await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo: no })
    const revoked = await ok(gateway.merchant(), "/acquire2/revokeOrder", { merchantOrderNo: no })
    expect(revoked.acquireOrder).toMatchObject({ status: "FAILURE", revoked: "true" })
    const again = await ok(gateway.merchant(), "/acquire2/revokeOrder", { merchantOrderNo: no })
    expect(again).toEqual(revoked)
    expect((await refused(gateway.merchant(), "/acquire2/refund/placeOrder", refundOf(no))).code).toBe("62040")
  })

  it("answers 62041 when revoking an order that has a refund", async () => {
    const no = newNumber("o")
    await createOrder(no)
    await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo: no })
    await ok(gateway.merchant(), "/acquire2/refund/placeOrder", refundOf(no, 10))
    expect((await refused(gateway.merchant(), "/acquire2/revokeOrder", { merchantOrderNo: no })).code).toBe("62041")
  })
})
