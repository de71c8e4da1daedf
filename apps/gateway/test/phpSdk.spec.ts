/**
 * The official PayBy PHP SDK works unchanged: create, refund, wallet and bank
 * transfer end to end over real HTTP, with every request written byte for
 * byte as the SDK writes it (`phpSdk.ts`), and the SDK's habits held to the
 * same rules as any other request.
 */
import { parsePublicKey, sha256Hex, verify } from "@mizan/protocol"
import { describe, expect, it } from "vitest"
import { sandbox } from "./calls.ts"
import { newNumber } from "./harness.ts"
import { phpBody, phpJsonEncode, phpPost, phpRequestTime } from "./phpSdk.ts"
import { postSigned } from "./raw.ts"
import { suiteGateway } from "./suiteGateway.ts"

const gateway = suiteGateway()

const php = (operationPath: string, bizContent: unknown, partnerId = "M1") =>
  phpPost({ baseUrl: gateway.baseUrl, partnerId, operationPath, bizContent })

/** A successful answer's body; fails the test with the answer's head otherwise. */
const phpOk = async (operationPath: string, bizContent: unknown) => {
  const answer = await php(operationPath, bizContent)
  expect(answer.json.head, answer.text).toMatchObject({ applyStatus: "SUCCESS", code: "0" })
  expect(verify(answer.text, answer.sign, parsePublicKey(gateway.servicePublicKeyPem))).toBe(true)
  return answer.json.body as Record<string, Record<string, unknown>>
}

/** A create-order bizContent as a PHP merchant's code fills it: string amount, `[]` for empty objects. */
const phpOrder = (merchantOrderNo: string) => ({
  merchantOrderNo,
  subject: "قهوة عربية",
  totalAmount: { currency: "AED", amount: "10.50" },
  paySceneCode: "PAYPAGE",
  notifyUrl: "https://merchant.example/payby/notify",
  paySceneParams: { redirectUrl: "https://merchant.example/return?order=1" },
  accessoryContent: { amountDetail: [], goodsDetail: [], terminalDetail: [] },
})

describe("the PHP SDK's request bytes", () => {
  it("writes what json_encode writes: escaped slashes, \\u escapes, an RFC 3339 requestTime with offset", () => {
    const body = phpBody({ partnerId: "M1", bizContent: { url: "https://a/b", subject: "قهوة" }, at: 0 })
    expect(body).toBe(
      '{"requestTime":"1970-01-01T04:00:00.000+04:00","bizContent":{"url":"https:\\/\\/a\\/b","subject":"\\u0642\\u0647\\u0648\\u0629"},"partnerId":"M1"}',
    )
    expect(phpJsonEncode([])).toBe("[]")
  })
})

describe("the official PHP SDK, unchanged", () => {
  it("creates an order and reads it back: string amount, [] parts, non-ASCII subject, requestTime as the instant", async () => {
    const merchantOrderNo = newNumber("php")
    const at = Math.floor(Date.now() / 1000) * 1000
    const answer = await phpPost(
      { baseUrl: gateway.baseUrl, partnerId: "M1", operationPath: "/acquire2/placeOrder", bizContent: null },
      phpBody({ partnerId: "M1", bizContent: phpOrder(merchantOrderNo), at }),
    )
    expect(answer.json.head, answer.text).toMatchObject({ code: "0" })
    const { acquireOrder } = await phpOk("/acquire2/getOrder", { merchantOrderNo })
    expect(acquireOrder).toMatchObject({
      merchantOrderNo,
      subject: "قهوة عربية",
      totalAmount: { amount: 10.5, currency: "AED" },
      notifyUrl: "https://merchant.example/payby/notify",
      paySceneParams: { redirectUrl: "https://merchant.example/return?order=1" },
      accessoryContent: { amountDetail: {}, goodsDetail: {}, terminalDetail: {} },
      requestTime: at,
    })
    const byOrderNo = await phpOk("/acquire2/getOrder", { orderNo: acquireOrder?.orderNo })
    expect(byOrderNo.acquireOrder?.merchantOrderNo).toBe(merchantOrderNo)
  })

  it("cancels an unpaid order, and refunds a paid one in parts", async () => {
    const unpaid = newNumber("php")
    await phpOk("/acquire2/placeOrder", phpOrder(unpaid))
    expect((await phpOk("/acquire2/cancelOrder", { merchantOrderNo: unpaid })).acquireOrder?.status).toBe("FAILURE")

    const paid = newNumber("php")
    await phpOk("/acquire2/placeOrder", phpOrder(paid))
    const payment = await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo: paid })
    expect(payment.head.code).toBe("0")
    const refundMerchantOrderNo = newNumber("phpr")
    const { refundOrder } = await phpOk("/acquire2/refund/placeOrder", {
      refundMerchantOrderNo,
      originMerchantOrderNo: paid,
      amount: { currency: "AED", amount: "0.50" },
      reason: "Cup / saucer broken",
    })
    expect(refundOrder).toMatchObject({ refundMerchantOrderNo, amount: { amount: 0.5, currency: "AED" } })
    const fetched = await phpOk("/acquire2/refund/getOrder", { refundMerchantOrderNo })
    expect(fetched.refundOrder?.refundMerchantOrderNo).toBe(refundMerchantOrderNo)
  })

  it("places and reads a wallet transfer under /acquire2/transfer/..., as the SDK posts it", async () => {
    const merchantOrderNo = newNumber("phpw")
    const { transferOrder } = await phpOk("/transfer/placeTransferOrder", {
      merchantOrderNo,
      beneficiaryIdentityType: "PHONE_NO",
      beneficiaryIdentity: gateway.merchant().encryptField("971500000001"),
      amount: { currency: "AED", amount: "12.00" },
      memo: "Salary advance",
    })
    expect(transferOrder).toMatchObject({ merchantOrderNo, beneficiaryIdentity: sha256Hex("971500000001") })
    const fetched = await phpOk("/transfer/getTransferOrder", { merchantOrderNo })
    expect(fetched.transferOrder?.status).toBe(transferOrder?.status)
  })

  it("lists payout abilities for bizContent null, then places and reads a bank transfer under /acquire2", async () => {
    const abilities = (await phpOk("/transfer/getFundoutAbilityList", null)) as { fundoutAbilityList?: unknown[] }
    expect(abilities.fundoutAbilityList?.length).toBeGreaterThan(0)
    const merchantOrderNo = newNumber("phpb")
    const client = gateway.merchant()
    const { transferToBankOrder } = await phpOk("/transfer/placeTransferToBankOrder", {
      merchantOrderNo,
      holderName: client.encryptField("Amal Saeed"),
      iban: client.encryptField("AE070331234567890123456"),
      amount: { currency: "AED", amount: "500" },
      memo: "Invoice 7",
    })
    expect(transferToBankOrder).toMatchObject({
      merchantOrderNo,
      status: "CREATED",
      amount: { amount: 500, currency: "AED" },
    })
    const fetched = await phpOk("/transfer/getTransferToBankOrder", { merchantOrderNo })
    expect(fetched.transferToBankOrder?.merchantOrderNo).toBe(merchantOrderNo)
  })
})

describe("the PHP SDK's habits loosen nothing else", () => {
  const expectInvalid = async (body: string, field: string, path = "/acquire2/getOrder") => {
    const answer = await phpPost(
      { baseUrl: gateway.baseUrl, partnerId: "M1", operationPath: path, bizContent: null },
      body,
    )
    expect(answer.status).toBe(200)
    expect(answer.json.head).toMatchObject({ applyStatus: "FAIL", code: "400" })
    expect(answer.json.head.msg).toContain(field)
  }
  const getOrder = { merchantOrderNo: "none" }

  it("refuses a requestTime string without an offset, or of another shape, naming requestTime", async () => {
    const withoutOffset = phpBody({ partnerId: "M1", bizContent: getOrder }).replace(/[+-]\d{2}:\d{2}"/, '"')
    await expectInvalid(withoutOffset, "requestTime")
    await expectInvalid(phpJsonEncode({ requestTime: "yesterday", bizContent: getOrder }), "requestTime")
  })

  it("applies the 15-minute window to the instant an RFC 3339 requestTime names, whatever its offset", async () => {
    const stale = phpBody({ partnerId: "M1", bizContent: getOrder, at: Date.now() - 16 * 60_000 })
    const answer = await phpPost(
      { baseUrl: gateway.baseUrl, partnerId: "M1", operationPath: "/acquire2/getOrder", bizContent: null },
      stale,
    )
    expect(answer.json.head.code).toBe("400")
    expect(answer.json.head.msg).toContain("15 minutes before")
    // Now, written in a zone 10 hours west: the same instant, inside the window.
    const farWest = phpJsonEncode({ requestTime: phpRequestTime(Date.now(), -600), bizContent: getOrder })
    const fresh = await phpPost(
      { baseUrl: gateway.baseUrl, partnerId: "M1", operationPath: "/acquire2/getOrder", bizContent: null },
      farWest,
    )
    expect(fresh.json.head.code).toBe("62004")
  })

  it("refuses a body partnerId that is not the Partner-Id header: the body never names another merchant", async () => {
    await expectInvalid(phpBody({ partnerId: "M2", bizContent: getOrder }), "partnerId")
  })

  it("still refuses a non-empty list where an object is expected", async () => {
    const order = { ...phpOrder(newNumber("php")), paySceneParams: ["https://merchant.example"] }
    await expectInvalid(
      phpBody({ partnerId: "M1", bizContent: order }),
      "bizContent.paySceneParams",
      "/acquire2/placeOrder",
    )
  })

  it("answers an alias path exactly as its spec path, under the same grant", async () => {
    const body = JSON.stringify({ requestTime: Date.now(), bizContent: { merchantOrderNo: "none" } })
    const key = (await import("./harness.ts")).merchantKeys("M1").privateKey
    const viaSpec = await postSigned(`${gateway.baseUrl}/sgs/api/transfer/getTransferOrder`, body, "M1", key)
    const viaAlias = await postSigned(`${gateway.baseUrl}/sgs/api/acquire2/transfer/getTransferOrder`, body, "M1", key)
    expect(viaAlias.json.head.code).toBe(viaSpec.json.head.code)
    expect(viaAlias.json.head.msg).toBe(viaSpec.json.head.msg)
    const unknown = await postSigned(`${gateway.baseUrl}/sgs/api/acquire2/transfer/nothingHere`, body, "M1", key)
    expect(unknown.json.head.code).not.toBe("0")
  })
})
