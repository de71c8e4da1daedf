/**
 * The pay page in a real headless Chromium (@sparticuz/chromium, driven by
 * playwright-core): a merchant creates an order through the merchant
 * client, a payer opens its link and clicks, the merchant reads the order.
 * One browser for the file; a fresh context (no shared state) per test.
 */
import chromium from "@sparticuz/chromium"
import { type Browser, type Page, chromium as playwright } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ok, sandbox } from "./calls.ts"
import { newNumber, startGateway, type TestGateway } from "./harness.ts"

/** Unpacking Chromium into the temp folder takes a few seconds the first time on a machine. */
const browserStartMs = 60_000
const browserTestMs = 15_000

/**
 * @sparticuz/chromium's flags are made for AWS Lambda. Its `--single-process`
 * brings the whole browser down when a context closes (found here: every
 * test after the first failed with "browser has been closed"); a machine
 * with more than Lambda's memory needs none of it.
 */
const browserArgs = chromium.args.filter((arg) => arg !== "--single-process")

let gateway: TestGateway
let browser: Browser
beforeAll(async () => {
  gateway = await startGateway()
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: browserArgs })
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

/** Opens a fresh browser context's page, runs `use`, and closes the context. */
const withPage = async (use: (page: Page) => Promise<void>) => {
  const context = await browser.newContext()
  try {
    await use(await context.newPage())
  } finally {
    await context.close()
  }
}

/** The value beside a term of the order's details (`<dt>Status</dt><dd>Paid</dd>`). */
const detailOf = (page: Page, term: string) => page.locator(`dt:text-is("${term}") + dd`).textContent()

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
        expect(await detailOf(page, "Status")).toBe("Awaiting payment")
        expect(await detailOf(page, "Amount")).toBe("AED 100.00")
        // The subject is text: the payer reads the angle brackets, and no <b> element exists.
        expect(await detailOf(page, "Order")).toBe("<b>Tea</b>")
        expect(await page.locator("main b").count()).toBe(0)

        await page.getByRole("button", { name: "Pay AED 100.00" }).click()
        await page.getByRole("heading", { name: "Payment received" }).waitFor()
        expect(await detailOf(page, "Status")).toBe("Paid")
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
        await page.getByRole("button", { name: "Fail payment" }).click()
        await page.getByRole("heading", { name: "Payment failed" }).waitFor()
        expect(await page.getByRole("status").textContent()).toContain("the payer's payment was declined")
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
      await sandbox(gateway.baseUrl, gateway.merchant(), "payOrder", { merchantOrderNo })
      await withPage(async (page) => {
        await page.goto(tokenUrl)
        await page.getByRole("heading", { name: "Payment received" }).waitFor()
        expect(await detailOf(page, "Status")).toBe("Paid")
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
        expect(await detailOf(page, "Card")).toBe("VISA ending in 4242")
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
        await page.getByRole("heading", { name: "This order expired" }).waitFor()
        expect(await detailOf(page, "Status")).toBe("Expired")
        expect(await page.getByRole("button").count()).toBe(0)
      })
      expect(await orderStatus(merchantOrderNo)).toMatchObject({ status: "FAILURE", failCode: "ORDER_EXPIRED" })
    },
    browserTestMs,
  )
})
