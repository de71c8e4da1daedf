/**
 * Every URL a merchant sends is checked when it arrives (`notifyUrl`,
 * `paySceneParams.redirectUrl`, a refund's or a transfer's `notifyUrl`): an
 * absolute http(s) URL, and in production no address the notifier would
 * refuse at delivery. It used to be taken with code 0 and given up a day later.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { aed, ok, placePaidOrder, refused } from "./calls.ts"
import { newNumber, type TestGateway } from "./harness.ts"
import { suiteGateway } from "./suiteGateway.ts"
import { startProductionGateway } from "./transferSupport.ts"

const sandboxGateway = suiteGateway()

const order = (overrides: Record<string, unknown>) =>
  ({
    merchantOrderNo: newNumber("url"),
    subject: "x",
    totalAmount: aed(1),
    paySceneCode: "PAYPAGE",
    ...overrides,
  }) as never

const refusalOf = async (gateway: TestGateway, overrides: Record<string, unknown>) =>
  refused(gateway.merchant(), "/acquire2/placeOrder", order(overrides))

describe("URLs a merchant sends, in the sandbox", () => {
  it.each([
    ["javascript:alert(1)", "must be an absolute http or https URL"],
    ["file:///etc/passwd", "must be an absolute http or https URL"],
    ["/notify", "must be an absolute http or https URL"],
    ["http://169.254.169.254/latest/meta-data", "must name a public address: 169.254.169.254 is a link-local address"],
    ["http://10.1.2.3/notify", "must name a public address: 10.1.2.3 is a private address"],
    ["http://[fd00::1]/notify", "must name a public address: fd00::1 is a private address"],
  ])("refuses notifyUrl %s with 400 naming the field and the rule", async (notifyUrl, rule) => {
    expect(await refusalOf(sandboxGateway, { notifyUrl })).toMatchObject({
      code: "400",
      msg: `INVALID_PARAMETER: bizContent.notifyUrl ${rule}`,
    })
  })

  it("refuses loopback through a NAT64 translator even in the sandbox: it is the translator's machine", async () => {
    expect(await refusalOf(sandboxGateway, { notifyUrl: "http://[64:ff9b::7f00:1]:9/n" })).toMatchObject({
      msg: "INVALID_PARAMETER: bizContent.notifyUrl must name a public address: 64:ff9b::7f00:1 is a loopback address (NAT64 of 127.0.0.1)",
    })
  })

  it("refuses a redirectUrl the same way, naming its path", async () => {
    expect(await refusalOf(sandboxGateway, { paySceneParams: { redirectUrl: "javascript:alert(1)" } })).toMatchObject({
      msg: "INVALID_PARAMETER: bizContent.paySceneParams.redirectUrl must be an absolute http or https URL",
    })
  })

  it("refuses a refund's notifyUrl the same way", async () => {
    const origin = await placePaidOrder(sandboxGateway)
    const refusal = await refused(sandboxGateway.merchant(), "/acquire2/refund/placeOrder", {
      refundMerchantOrderNo: newNumber("r"),
      originMerchantOrderNo: origin,
      amount: aed(1),
      notifyUrl: "http://192.168.1.1/notify",
    } as never)
    expect(refusal.msg).toBe(
      "INVALID_PARAMETER: bizContent.notifyUrl must name a public address: 192.168.1.1 is a private address",
    )
  })

  it("takes the merchant's own machine (loopback) and public hosts in the sandbox", async () => {
    for (const notifyUrl of ["http://127.0.0.1:9/notify", "http://localhost:8000/n", "https://merchant.example/n"])
      expect(
        (await ok(sandboxGateway.merchant(), "/acquire2/placeOrder", order({ notifyUrl }))).acquireOrder.notifyUrl,
      ).toBe(notifyUrl)
  })
})

describe("URLs a merchant sends, in production", () => {
  let production: TestGateway
  beforeAll(async () => {
    production = await startProductionGateway()
  })
  afterAll(() => production.close())

  it.each([
    ["http://127.0.0.1:8080/notify", "127.0.0.1 is a loopback address"],
    ["http://localhost/notify", "localhost is a loopback address"],
    ["http://api.localhost/notify", "api.localhost is a loopback address"],
    ["http://[::1]/notify", "::1 is a loopback address"],
    ["http://2852039166/", "169.254.169.254 is a link-local address"],
    ["http://0251.0376.0251.0376/", "169.254.169.254 is a link-local address"],
    ["http://0xa9fea9fe/", "169.254.169.254 is a link-local address"],
    ["http://[::ffff:a9fe:a9fe]/", "::ffff:a9fe:a9fe is a link-local address"],
    ["http://[::a9fe:a9fe]/", "::a9fe:a9fe is a link-local address (IPv4-compatible of 169.254.169.254)"],
    ["http://[64:ff9b::a9fe:a9fe]/", "64:ff9b::a9fe:a9fe is a link-local address (NAT64 of 169.254.169.254)"],
    ["http://[64:ff9b:1::a9fe:a9fe]/", "64:ff9b:1::a9fe:a9fe is a private address"],
    ["http://[2002:a9fe:a9fe::]/", "2002:a9fe:a9fe:: is a link-local address (6to4 of 169.254.169.254)"],
    [
      "http://[2001:0:4136:e378:8000:63bf:5601:5601]/",
      "2001:0:4136:e378:8000:63bf:5601:5601 is a link-local address (Teredo of 169.254.169.254)",
    ],
  ])("refuses %s: the notifier would refuse it at delivery", async (notifyUrl, reason) => {
    expect((await refusalOf(production, { notifyUrl })).msg).toBe(
      `INVALID_PARAMETER: bizContent.notifyUrl must name a public address: ${reason}`,
    )
  })

  it("takes a public https URL", async () => {
    const notifyUrl = "https://merchant.example/payby/notify"
    expect((await ok(production.merchant(), "/acquire2/placeOrder", order({ notifyUrl }))).acquireOrder.notifyUrl).toBe(
      notifyUrl,
    )
  })
})
