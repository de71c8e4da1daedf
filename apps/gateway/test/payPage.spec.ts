/**
 * The hosted pay page over real HTTP: what a payer sees for each state of
 * an order, the sandbox's outcomes, the 3-D Secure challenge, and that
 * nothing a merchant sends is ever markup.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { test as propertyTest } from "@fast-check/vitest"
import { newMasterKey } from "@mizan/eventsourcing"
import { generateKeyPair } from "@mizan/protocol"
import { writeMasterKeyFile } from "@mizan/stores"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { escapeHtml, html } from "../src/payPage/html.ts"
import { payTokenFor } from "../src/payToken.ts"
import { ApiSettings } from "../src/pipeline/apiSettings.ts"
import { ok, refused } from "./calls.ts"
import { newNumber, startGateway, testConfig, testMerchant } from "./harness.ts"
import { suiteGateway } from "./suiteGateway.ts"
import { storedText } from "./transferSupport.ts"

const gateway = suiteGateway(() =>
  startGateway({
    config: testConfig({
      merchants: [
        testMerchant("M1", { name: "Beans & <Co>" }),
        testMerchant("M2", {
          name: "متجر القهوة",
          logoUrl: "https://cdn.merchant.example/logo.png",
          brandColor: "#f5c400",
        }),
      ],
      payPage: {
        serviceName: "Mizan Pay",
        termsUrl: "https://pay.example/terms",
        privacyUrl: "https://pay.example/privacy",
      },
    }),
  }),
)

const createOrder = async (overrides: Record<string, unknown> = {}, partnerId = "M1") => {
  const merchantOrderNo = newNumber("pp")
  const body = await ok(gateway.merchant(partnerId), "/acquire2/placeOrder", {
    merchantOrderNo,
    subject: "Coffee beans",
    totalAmount: { amount: 1234.5, currency: "AED" },
    paySceneCode: "PAYPAGE",
    ...overrides,
  } as never)
  return { merchantOrderNo, body }
}

/**
 * The path of a link the gateway made. Its publicBaseUrl names port 8080;
 * the test gateway listens on a random port, so links are followed there.
 */
const pathOf = (url: string): string => new URL(url).pathname

const openPage = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${gateway.baseUrl}${path}`, { redirect: "manual", ...init })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const createPayPageOrder = async (overrides: Record<string, unknown> = {}, partnerId = "M1") => {
  const { merchantOrderNo, body } = await createOrder(overrides, partnerId)
  const tokenUrl = body.interactionParams?.tokenUrl
  if (tokenUrl === undefined) throw new Error("a PAYPAGE order has a tokenUrl")
  return { merchantOrderNo, path: pathOf(tokenUrl) }
}

const statusOf = async (merchantOrderNo: string) =>
  (await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo })).acquireOrder

const post = (path: string) => openPage(path, { method: "POST" })

describe("the order's page", () => {
  it("shows the merchant first, then the total, the subject and the time left, with Pay and a separate test outcome", async () => {
    // 118 minutes and a half on the merchant's clock: the payer is told the whole minutes left, never more.
    const { path } = await createPayPageOrder({ expiredTime: Date.now() + 118.5 * 60_000 })
    const page = await openPage(path)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const order = [
      '<p class="merchant-name" dir="auto">Beans &amp; &lt;Co&gt;</p>',
      "<h1>Complete your payment</h1>",
      '<p class="total">AED 1,234.50</p>',
      '<p class="subject" dir="auto">Coffee beans</p>',
      '<p class="deadline">Expires in 1 h 58 min (',
      `<form method="post" action="${path}/pay"><button type="submit" class="primary">Pay AED 1,234.50</button></form>`,
      '<p class="fine">Reference: ',
      '<section class="test-outcomes" aria-labelledby="test-outcomes">',
      `<form method="post" action="${path}/fail">`,
    ].map((markup) => page.text.indexOf(markup))
    expect(order.every((at) => at >= 0)).toBe(true)
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect(page.text).toMatch(/Gulf time\)<\/p>/)
  })

  it("says the deadline in Gulf time (Asia/Dubai, UTC+4, no daylight saving)", async () => {
    const expiredTime = Math.floor(Date.now() / 60_000) * 60_000 + 47 * 3_600_000
    const { path } = await createPayPageOrder({ expiredTime })
    const dubai = new Date(expiredTime + 4 * 3_600_000).toISOString().slice(11, 16)
    expect((await openPage(path)).text).toContain(`${dubai} Gulf time)`)
  })

  it("loads nothing from elsewhere and keeps its link out of Referer headers and caches", async () => {
    const { path } = await createPayPageOrder()
    const page = await openPage(path)
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/)
    expect(page.headers.get("content-security-policy")).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/)
    expect(page.headers.get("referrer-policy")).toBe("no-referrer")
    expect(page.headers.get("cache-control")).toBe("no-store")
    expect(page.text).not.toMatch(/<(script|link|img)\b|\bsrc=/)
  })

  it("shows a subject with <script> as text, never as markup", async () => {
    const { path } = await createPayPageOrder({ subject: "<script>x" })
    const page = await openPage(path)
    expect(page.text).toContain('<p class="subject" dir="auto">&lt;script&gt;x</p>')
    expect(page.text).not.toContain("<script>")
  })

  it("answers 404 for an unknown, tampered or forged token", async () => {
    const { path } = await createPayPageOrder()
    const token = path.slice("/pay/".length)
    // One character changed in the middle fails the cipher's tag; the earlier format (names beside an HMAC) is unknown too.
    const middle = Math.floor(token.length / 2)
    const tampered = `${token.slice(0, middle)}${token[middle] === "A" ? "B" : "A"}${token.slice(middle + 1)}`
    const clearNames = `${Buffer.from(JSON.stringify(["M1", "someone-elses"])).toString("base64url")}.${token.slice(0, 43)}`
    const unknownOrder = await gateway.run(
      Effect.gen(function* () {
        const { servicePrivateKey } = yield* ApiSettings
        return payTokenFor({ merchantId: "M1", merchantOrderNo: "never-created" }, servicePrivateKey)
      }),
    )
    for (const forged of ["nonsense", tampered, token.slice(0, -2), clearNames, unknownOrder]) {
      const page = await openPage(`/pay/${forged}`)
      expect(page.status, forged).toBe(404)
      expect(page.text).toContain("Payment link not found")
    }
    expect((await post(`/pay/${tampered}/pay`)).status).toBe(404)
  })

  it("names the order in its link without revealing the merchant's order number, and always by the same link", async () => {
    const merchantOrderNo = newNumber("secret-number")
    const { path } = await createPayPageOrder({ merchantOrderNo })
    const token = path.slice("/pay/".length)
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/)
    for (const reading of [token, Buffer.from(token, "base64url").toString("latin1")])
      expect(reading).not.toContain("secret-number")
    const repeated = await createOrder({ merchantOrderNo })
    expect(pathOf(repeated.body.interactionParams?.tokenUrl ?? "")).toBe(path)
  })
})

describe("the sandbox's outcomes", () => {
  it("pays the order, then shows it paid with a way back to the merchant's redirectUrl and no pay button", async () => {
    const { merchantOrderNo, path } = await createPayPageOrder({
      paySceneParams: { redirectUrl: "https://merchant.example/done?order=1&x=<y>" },
    })
    const paid = await post(`${path}/pay`)
    expect(paid.status).toBe(303)
    expect(paid.headers.get("location")).toBe(path)
    expect((await statusOf(merchantOrderNo)).status).toBe("PAID_SUCCESS")
    const page = await openPage(path)
    expect(page.text).toContain("<h1>Payment received</h1>")
    expect(page.text).toContain('<dl class="receipt">')
    // The receipt's time says its zone, as the deadline's does.
    expect(page.text).toMatch(/<dt>Paid on<\/dt><dd>\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} Gulf time<\/dd>/)
    const arabic = await openPage(`${path}?lang=ar`)
    expect(arabic.text).toMatch(/<dt>تاريخ الدفع<\/dt><dd>[^<]+ بتوقيت الخليج<\/dd>/)
    expect(page.text).toContain(
      '<a class="primary" href="https://merchant.example/done?order=1&amp;x=&lt;y&gt;">Return to <bdi dir="auto">Beans &amp; &lt;Co&gt;</bdi></a>',
    )
    expect(page.text).not.toContain("<form")
  })

  it("pays once: a second Pay on a paid order changes nothing", async () => {
    const { merchantOrderNo, path } = await createPayPageOrder()
    await post(`${path}/pay`)
    const first = await statusOf(merchantOrderNo)
    const again = await post(`${path}/pay`)
    expect(again.status).toBe(303)
    expect(await statusOf(merchantOrderNo)).toEqual(first)
  })

  it("fails an attempt and offers another while the order stays open", async () => {
    const { merchantOrderNo, path } = await createPayPageOrder()
    expect((await post(`${path}/fail`)).status).toBe(303)
    expect((await statusOf(merchantOrderNo)).status).toBe("CREATED")
    const page = await openPage(path)
    expect(page.text).toContain("Your payment was declined. No money was taken. You can try again.")
    expect(page.text).toContain(`action="${path}/pay"`)
  })

  it("fails a one-time payment for good and says why, with no button left", async () => {
    const { merchantOrderNo, path } = await createPayPageOrder({ paySceneParams: { oneTimePayment: "true" } })
    await post(`${path}/fail`)
    expect(await statusOf(merchantOrderNo)).toMatchObject({ status: "FAILURE", failCode: "PAYMENT_FAILED" })
    const page = await openPage(path)
    expect(page.text).toContain("<h1>Payment failed</h1>")
    expect(page.text).toContain("Your payment was declined. No money was taken.")
    // No redirectUrl: the next step is whom to contact.
    expect(page.text).toContain('Contact <bdi dir="auto">Beans &amp; &lt;Co&gt;</bdi> to pay another way.')
    expect(page.text).not.toContain("<form")
  })

  it("never links to a redirectUrl that is not a web address: such an order is refused when it is created", async () => {
    const refusal = await refused(gateway.merchant(), "/acquire2/placeOrder", {
      merchantOrderNo: newNumber("pp"),
      subject: "x",
      totalAmount: { amount: 1, currency: "AED" },
      paySceneCode: "PAYPAGE",
      paySceneParams: { redirectUrl: "javascript:alert(1)" },
    } as never)
    expect(refusal).toMatchObject({
      code: "400",
      msg: expect.stringContaining("bizContent.paySceneParams.redirectUrl"),
    })
  })

  it("shows an order cancelled by the merchant as cancelled", async () => {
    const { merchantOrderNo, path } = await createPayPageOrder()
    await ok(gateway.merchant(), "/acquire2/cancelOrder", { merchantOrderNo })
    const page = await openPage(path)
    expect(page.text).toContain("<h1>This order was cancelled</h1>")
    expect(page.text).toContain("No money was taken.")
    expect(page.text).not.toContain("<form")
  })
})

describe("languages", () => {
  it("speaks Arabic, right to left, to a browser that prefers it, and English otherwise", async () => {
    const { path } = await createPayPageOrder()
    const arabic = await openPage(path, { headers: { "accept-language": "ar-AE,ar;q=0.9,en;q=0.8" } })
    expect(arabic.text).toContain('<html lang="ar" dir="rtl">')
    expect(arabic.text).toContain("<h1>أكمل عملية الدفع</h1>")
    expect(arabic.headers.get("content-language")).toBe("ar")
    const english = await openPage(path, { headers: { "accept-language": "fr-FR,fr;q=0.9,en;q=0.5" } })
    expect(english.text).toContain('<html lang="en" dir="ltr">')
    expect(english.text).toContain(`<a href="${path}?lang=ar" lang="ar" hreflang="ar">العربية</a>`)
  })

  it("keeps the language the payer switched to through the outcome's forms and redirect", async () => {
    const { path } = await createPayPageOrder()
    const page = await openPage(`${path}?lang=ar`, { headers: { "accept-language": "en" } })
    expect(page.text).toContain('<html lang="ar" dir="rtl">')
    expect(page.text).toContain(`action="${path}/pay?lang=ar"`)
    expect(page.text).toContain(`<a href="${path}?lang=en" lang="en" hreflang="en">English</a>`)
    const paid = await post(`${path}/pay?lang=ar`)
    expect(paid.headers.get("location")).toBe(`${path}?lang=ar`)
    expect((await openPage(`${path}?lang=ar`)).text).toContain("<h1>تم استلام الدفعة</h1>")
  })

  it("marks the merchant's own words with their own direction", async () => {
    const { path } = await createPayPageOrder({ subject: "قهوة عربية" }, "M2")
    const page = await openPage(path)
    expect(page.text).toContain('<p class="merchant-name" dir="auto">متجر القهوة</p>')
    expect(page.text).toContain('<p class="subject" dir="auto">قهوة عربية</p>')
  })
})

describe("the merchant's brand and the service's footer", () => {
  it("shows the merchant's https logo and colours Pay with its brand colour in readable text", async () => {
    const { path } = await createPayPageOrder({}, "M2")
    const page = await openPage(path)
    expect(page.text).toContain('<img src="https://cdn.merchant.example/logo.png" alt="" width="44" height="44">')
    expect(page.headers.get("content-security-policy")).toContain("img-src https:")
    // A yellow this light takes black text: white on it would be unreadable.
    expect(page.text).toContain("--brand: #f5c400; --on-brand: #000000;")
  })

  it("names the service, says the payment is secure, and links its terms and privacy notice", async () => {
    const { path } = await createPayPageOrder()
    const page = await openPage(path)
    expect(page.text).toContain("<p><strong>Mizan Pay</strong> · Secure payment</p>")
    expect(page.text).toContain('<a href="https://pay.example/terms">Terms</a>')
    expect(page.text).toContain('<a href="https://pay.example/privacy">Privacy</a>')
  })
})

describe("3-D Secure (DIRECTPAY)", () => {
  const directPayForm = async () => {
    const { merchantOrderNo, body } = await createOrder({ paySceneCode: "DIRECTPAY" })
    const dom = body.interactionParams?.threeDSecureDom ?? ""
    const action = /action="([^"]+)"/.exec(dom)?.[1]
    if (action === undefined) throw new Error("threeDSecureDom has a form")
    return { merchantOrderNo, challengePath: pathOf(action), token: /value="([^"]+)"/.exec(dom)?.[1] ?? "" }
  }

  it("answers the threeDSecureDom form with a challenge naming the card by its last 4 digits only", async () => {
    const { challengePath, token } = await directPayForm()
    const page = await openPage(challengePath, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${encodeURIComponent(token)}`,
    })
    expect(page.status).toBe(200)
    expect(page.text).toContain("<h1>Confirm your payment</h1>")
    expect(page.text).toContain("<dd>VISA ending in 4242</dd>")
    expect(page.text).toContain(">Confirm payment</button>")
  })

  it("pays with the sandbox card when the payer confirms", async () => {
    const { merchantOrderNo, challengePath } = await directPayForm()
    const orderPath = challengePath.replace(/\/3ds$/, "")
    await post(`${orderPath}/pay`)
    expect((await statusOf(merchantOrderNo)).paymentInfo).toMatchObject({
      payChannel: "BANKCARD",
      cardInfo: { last4: "4242" },
    })
  })

  it("records a failed verification as a failed 3-D Secure attempt, and lets the payer try again", async () => {
    const { merchantOrderNo, challengePath } = await directPayForm()
    const orderPath = challengePath.replace(/\/3ds$/, "")
    await post(`${orderPath}/fail`)
    const page = await openPage(orderPath)
    expect(page.text).toContain("Your payment was declined. No money was taken. You can try again.")
    expect((await statusOf(merchantOrderNo)).status).toBe("CREATED")
    expect(await storedText(gateway)).toContain("THREE_D_SECURE_FAILED")
  })
})

describe("expiry", () => {
  it("shows an order past its expiredTime as expired, closed, with no button", async () => {
    const { merchantOrderNo, path } = await createPayPageOrder({ expiredTime: Date.now() + 60_000 })
    await gateway.advanceClock(2)
    const page = await openPage(path)
    expect(page.text).toContain("<h1>This payment link has expired</h1>")
    expect(page.text).toContain('Ask <bdi dir="auto">Beans &amp; &lt;Co&gt;</bdi> for a new payment link.')
    expect(page.text).not.toContain("<form")
    expect(await statusOf(merchantOrderNo)).toMatchObject({ status: "FAILURE", failCode: "ORDER_EXPIRED" })
    await post(`${path}/pay`)
    expect((await statusOf(merchantOrderNo)).status).toBe("FAILURE")
  })
})

describe("production mode", () => {
  it("shows the order, says payment channels are not connected, and takes no sandbox outcome", async () => {
    const keysDir = mkdtempSync(join(tmpdir(), "mizan-paypage-keys-"))
    const keys = generateKeyPair()
    writeFileSync(join(keysDir, "private.pem"), keys.privateKeyPem, { mode: 0o600 })
    writeFileSync(join(keysDir, "public.pem"), keys.publicKeyPem)
    writeMasterKeyFile(join(keysDir, "master-keys.json"), [newMasterKey()])
    const production = await startGateway({
      config: testConfig({
        mode: "production",
        serviceKeys: { privateKeyFile: join(keysDir, "private.pem"), publicKeyFile: join(keysDir, "public.pem") },
        masterKeyFile: join(keysDir, "master-keys.json"),
      }),
    })
    try {
      const body = await ok(production.merchant(), "/acquire2/placeOrder", {
        merchantOrderNo: newNumber("pp"),
        subject: "Tea",
        totalAmount: { amount: 5, currency: "AED" },
        paySceneCode: "PAYPAGE",
      } as never)
      const path = pathOf(body.interactionParams?.tokenUrl ?? "")
      const page = await fetch(`${production.baseUrl}${path}`).then((r) => r.text())
      expect(page).toContain('<p class="subject" dir="auto">Tea</p>')
      expect(page).toContain("Payment channels are not connected")
      expect(page).not.toContain("<form")
      expect(page).not.toContain("Sandbox")
      const pay = await fetch(`${production.baseUrl}${path}/pay`, { method: "POST", redirect: "manual" })
      expect(pay.status).toBe(404)
    } finally {
      await production.close()
      rmSync(keysDir, { recursive: true, force: true })
    }
  })
})

describe("escaping", () => {
  const unescape = (s: string) =>
    s
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&")

  /** Any text, with the characters markup is made of drawn often. */
  const anyText = fc.string({
    unit: fc.oneof(
      fc.constantFrom("<", ">", "&", '"', "'", "&lt;", "<script>"),
      fc.string({ unit: "binary", maxLength: 1 }),
    ),
  })

  propertyTest.prop([anyText], { numRuns: 200 })(
    "prints any text as text: no tag or quote of its own survives, and the payer reads it unchanged",
    (text) => {
      const escaped = escapeHtml(text)
      expect(escaped).not.toMatch(/[<>"']/)
      expect(unescape(escaped)).toBe(text)
      expect(html`<p title="${text}">${text}</p>`.markup).toBe(`<p title="${escaped}">${escaped}</p>`)
    },
  )
})
