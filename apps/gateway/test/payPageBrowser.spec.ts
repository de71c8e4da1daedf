/**
 * The pay page in a real headless Chromium (@sparticuz/chromium, driven by
 * playwright-core): a merchant creates an order through the merchant
 * client, a payer opens its link and clicks, the merchant reads the order.
 * One browser for the file; a fresh context (no shared state) per test.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { browserStartMs, launchBrowser, withPage as withBrowserPage } from "./browser.ts"
import { ok, sandbox } from "./calls.ts"
import { newNumber, startGateway, type TestGateway } from "./harness.ts"

const browserTestMs = 15_000

let gateway: TestGateway
let browser: Browser
beforeAll(async () => {
  gateway = await startGateway()
  browser = await launchBrowser()
}, browserStartMs)
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
})

/**
 * A link the gateway made, on the gateway: its publicBaseUrl names port
 * 8080, while the test gateway listens on a random port.
 */
const onGateway = (url: string): string => {
  const { pathname } = new URL(url)
  return `${gateway.baseUrl}${pathname}`
}

const createOrder = async (overrides: Record<string, unknown> = {}) => {
  const merchantOrderNo = newNumber("br")
  const body = await ok(gateway.merchant(), "/acquire2/placeOrder", {
    merchantOrderNo,
    subject: "Coffee beans",
    totalAmount: { amount: 100, currency: "AED" },
    paySceneCode: "PAYPAGE",
    ...overrides,
  } as never)
  return { merchantOrderNo, body }
}

const createPayPageOrder = async (overrides: Record<string, unknown> = {}) => {
  const { merchantOrderNo, body } = await createOrder(overrides)
  return { merchantOrderNo, tokenUrl: onGateway(body.interactionParams?.tokenUrl ?? "") }
}

const orderStatus = async (merchantOrderNo: string) =>
  (await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo })).acquireOrder

const withPage = (use: (page: Page) => Promise<void>) => withBrowserPage(browser, use)

/** The text of the page's main amount, its subject and its headline. */
const totalOf = (page: Page) => page.locator(".total").textContent()
const subjectOf = (page: Page) => page.locator(".subject").textContent()

describe("the pay page in a browser", () => {
  it(
    "pays a PAYPAGE order with one click, shows it paid, and the merchant reads PAID_SUCCESS",
    async () => {
      const { merchantOrderNo, tokenUrl } = await createPayPageOrder({
        subject: "<b>Tea</b>",
        paySceneParams: { redirectUrl: "https://merchant.example/thanks" },
      })
      await withPage(async (page) => {
        await page.goto(tokenUrl)
        await page.getByRole("heading", { name: "Complete your payment" }).waitFor()
        expect(await totalOf(page)).toBe("AED 100.00")
        // The subject is text: the payer reads the angle brackets, and no <b> element exists.
        expect(await subjectOf(page)).toBe("<b>Tea</b>")
        expect(await page.locator("main b").count()).toBe(0)

        await page.getByRole("button", { name: "Pay AED 100.00" }).click()
        await page.getByRole("heading", { name: "Payment received" }).waitFor()
        expect(await page.getByRole("button").count()).toBe(0)
        expect(await page.getByRole("link", { name: "Return to M1" }).getAttribute("href")).toBe(
          "https://merchant.example/thanks",
        )
      })
      expect((await orderStatus(merchantOrderNo)).status).toBe("PAID_SUCCESS")
    },
    browserTestMs,
  )

  it(
    "fails a one-time payment: the page says why and the merchant reads FAILURE",
    async () => {
      const { merchantOrderNo, tokenUrl } = await createPayPageOrder({ paySceneParams: { oneTimePayment: "true" } })
      await withPage(async (page) => {
        await page.goto(tokenUrl)
        await page
          .getByRole("region", { name: "Test outcomes" })
          .getByRole("button", { name: "Decline this payment" })
          .click()
        await page.getByRole("heading", { name: "Payment failed" }).waitFor()
        expect(await page.getByRole("status").textContent()).toBe("Your payment was declined. No money was taken.")
        expect(await page.getByRole("button").count()).toBe(0)
      })
      expect(await orderStatus(merchantOrderNo)).toMatchObject({ status: "FAILURE", failCode: "PAYMENT_FAILED" })
    },
    browserTestMs,
  )

  it(
    "shows an already paid order as paid, with no button",
    async () => {
      const { merchantOrderNo, tokenUrl } = await createPayPageOrder()
      await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo })
      await withPage(async (page) => {
        await page.goto(tokenUrl)
        await page.getByRole("heading", { name: "Payment received" }).waitFor()
        expect(await page.getByRole("button").count()).toBe(0)
      })
    },
    browserTestMs,
  )

  it(
    "pays a DIRECTPAY order through the 3-D Secure form the merchant's page renders",
    async () => {
      const { merchantOrderNo, body } = await createOrder({ paySceneCode: "DIRECTPAY" })
      const dom = (body.interactionParams?.threeDSecureDom ?? "").replace(
        /action="([^"]+)"/,
        (_, action: string) => `action="${onGateway(action)}"`,
      )
      await withPage(async (page) => {
        // The merchant's page inserts threeDSecureDom; its script submits the form to the gateway.
        await page.setContent(`<!doctype html><html><body>${dom}</body></html>`)
        await page.getByRole("heading", { name: "Confirm your payment" }).waitFor()
        expect(await page.locator('dt:text-is("Card") + dd').textContent()).toBe("VISA ending in 4242")
        await page.getByRole("button", { name: "Confirm payment" }).click()
        await page.getByRole("heading", { name: "Payment received" }).waitFor()
      })
      expect((await orderStatus(merchantOrderNo)).paymentInfo?.cardInfo?.last4).toBe("4242")
    },
    browserTestMs,
  )

  // Last: it moves the gateway's clock forward for every order of this file.
  it(
    "shows an expired order as expired and offers no button, once the sandbox clock passes its expiredTime",
    async () => {
      const { merchantOrderNo, tokenUrl } = await createPayPageOrder({ expiredTime: Date.now() + 60_000 })
      await gateway.advanceClock(2)
      await withPage(async (page) => {
        await page.goto(tokenUrl)
        await page.getByRole("heading", { name: "This payment link has expired" }).waitFor()
        expect(await page.getByRole("status").textContent()).toContain("No money was taken.")
        expect(await page.getByRole("button").count()).toBe(0)
      })
      expect(await orderStatus(merchantOrderNo)).toMatchObject({ status: "FAILURE", failCode: "ORDER_EXPIRED" })
    },
    browserTestMs,
  )
})
