/**
 * How the pay page looks and reads, in a real headless Chromium: each
 * state a payer meets (created, paid, failed, expired), in English and in
 * Arabic, at a desktop width (1280 px) and a phone's (390 px). Each is
 * screenshot into the gateway's test-artifacts folder (gitignored, for
 * people to look at), checked by axe-core (no violation), and measured:
 * the total is the largest text, nothing scrolls sideways, and on a phone
 * the Pay button spans the page and is a thumb's height.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { axeViolations, browserStartMs, launchBrowser, screenshot, withPage } from "./browser.ts"
import { ok, sandbox } from "./calls.ts"
import { newNumber, startGateway, type TestGateway, testConfig, testMerchant } from "./harness.ts"

const stateTestMs = 90_000
const widths = [1280, 390] as const
const languages = ["en", "ar"] as const

let gateway: TestGateway
let browser: Browser
beforeAll(async () => {
  gateway = await startGateway({
    config: testConfig({
      merchants: [
        testMerchant("M1", { name: "Falcon Coffee Roasters", brandColor: "#0a6e4f" }),
        testMerchant("M2", { name: "متجر الصقر" }),
      ],
      payPage: {
        serviceName: "Mizan",
        termsUrl: "https://pay.example/terms",
        privacyUrl: "https://pay.example/privacy",
      },
    }),
  })
  browser = await launchBrowser()
}, browserStartMs)
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
})

/** A PAYPAGE order's link, on the test gateway (its publicBaseUrl names another port). */
const createOrder = async (partnerId: string, overrides: Record<string, unknown> = {}) => {
  const merchantOrderNo = newNumber("look")
  const body = await ok(gateway.merchant(partnerId), "/acquire2/placeOrder", {
    merchantOrderNo,
    subject: "Beans, 1 kg",
    totalAmount: { amount: 1234.5, currency: "AED" },
    paySceneCode: "PAYPAGE",
    ...overrides,
  } as never)
  const { pathname } = new URL(body.interactionParams?.tokenUrl ?? "")
  return { merchantOrderNo, url: `${gateway.baseUrl}${pathname}` }
}

interface Layout {
  /** The largest font size of any text on the page, and the total's. */
  readonly largestFontPx: number
  readonly totalFontPx: number
  readonly scrollWidth: number
  readonly viewportWidth: number
  /** The Pay button's box, and the width of the content it sits in; undefined without one. */
  readonly pay?: { readonly width: number; readonly height: number; readonly containerWidth: number }
}

/**
 * Measured in the page (written as script text: the tests compile without
 * the DOM's types). Text elements are those with text of their own.
 */
const measureLayout = `(() => {
  const fontPx = (element) => Number.parseFloat(getComputedStyle(element).fontSize)
  const withText = [...document.body.querySelectorAll("*")].filter((element) =>
    [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim() !== ""))
  const total = document.querySelector(".total")
  const pay = document.querySelector("button.primary")
  const main = document.querySelector("main")
  const style = getComputedStyle(main)
  const containerWidth = main.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)
  return {
    largestFontPx: Math.max(...withText.map(fontPx)),
    totalFontPx: total === null ? 0 : fontPx(total),
    scrollWidth: document.documentElement.scrollWidth,
    viewportWidth: window.innerWidth,
    ...(pay === null ? {} : { pay: { width: pay.getBoundingClientRect().width, height: pay.getBoundingClientRect().height, containerWidth } }),
  }
})()`

const layoutOf = (page: Page): Promise<Layout> => page.evaluate(measureLayout) as Promise<Layout>

/**
 * Opens the state's page in each language at each width: screenshot, axe,
 * and the layout facts every state keeps; answers the layouts for the
 * state's own checks.
 */
type InEach<A> = Readonly<Record<(typeof languages)[number], A>>

const lookAt = async (
  state: string,
  url: string,
  heading: InEach<string>,
  says: InEach<ReadonlyArray<string>> = { en: [], ar: [] },
) => {
  const layouts: Array<{ language: string; width: number; layout: Layout }> = []
  for (const language of languages)
    for (const width of widths)
      await withPage(
        browser,
        async (page) => {
          await page.goto(`${url}?lang=${language}`)
          await page.getByRole("heading", { level: 1, name: heading[language] }).waitFor()
          const text = (await page.locator("main").textContent()) ?? ""
          for (const words of says[language]) expect(text, `${state} ${language}`).toContain(words)
          expect(await page.locator("html").getAttribute("dir")).toBe(language === "ar" ? "rtl" : "ltr")
          await screenshot(page, "pay-page", `${state}-${language}-${width}`)
          expect(await axeViolations(page), `${state} ${language} ${width}px`).toEqual([])
          const layout = await layoutOf(page)
          expect(layout.scrollWidth, `${state} ${language} ${width}px scrolls sideways`).toBeLessThanOrEqual(
            layout.viewportWidth,
          )
          expect(layout.totalFontPx, `${state} ${language} ${width}px`).toBe(layout.largestFontPx)
          layouts.push({ language, width, layout })
        },
        { viewport: { width, height: 900 } },
      )
  return layouts
}

describe("the pay page's look, in English and Arabic, on a desktop and a phone", () => {
  it("is checked by an axe that does find violations where there are some", async () => {
    const violations = await withPage(browser, async (page) => {
      await page.setContent('<!doctype html><html><body><img src="data:,"><button></button></body></html>')
      return axeViolations(page)
    })
    expect(violations.map((violation) => violation.id)).toEqual(
      expect.arrayContaining(["html-has-lang", "image-alt", "button-name"]),
    )
  })

  it(
    "created: the total is the largest text, and on a phone Pay spans the page, 48 px high or more",
    async () => {
      const { url } = await createOrder("M1")
      const layouts = await lookAt("created", url, { en: "Complete your payment", ar: "أكمل عملية الدفع" })
      for (const { language, width, layout } of layouts) {
        expect(layout.pay, `${language} ${width}px`).toBeDefined()
        expect(layout.pay?.height ?? 0).toBeGreaterThanOrEqual(48)
        if (width === 390) expect(layout.pay?.width ?? 0).toBeCloseTo(layout.pay?.containerWidth ?? -1, 0)
      }
    },
    stateTestMs,
  )

  it(
    "paid: a receipt with the way back to the merchant",
    async () => {
      const { merchantOrderNo, url } = await createOrder("M1", {
        paySceneParams: { redirectUrl: "https://merchant.example/thanks" },
      })
      expect((await sandbox(gateway.merchant("M1"), "payOrder", { merchantOrderNo })).head.code).toBe("0")
      await lookAt(
        "paid",
        url,
        { en: "Payment received", ar: "تم استلام الدفعة" },
        { en: ["Return to Falcon Coffee Roasters", "Keep this page as your receipt."], ar: ["العودة إلى", "كإيصال"] },
      )
    },
    stateTestMs,
  )

  it(
    "failed: says no money was taken, and whom to contact",
    async () => {
      const { merchantOrderNo, url } = await createOrder("M2", { paySceneParams: { oneTimePayment: "true" } })
      expect((await sandbox(gateway.merchant("M2"), "failPayment", { merchantOrderNo })).head.code).toBe("0")
      await lookAt(
        "failed",
        url,
        { en: "Payment failed", ar: "فشلت عملية الدفع" },
        {
          en: ["Your payment was declined. No money was taken.", "Contact متجر الصقر to pay another way."],
          ar: ["لم يُخصم أي مبلغ", "للدفع بطريقة أخرى"],
        },
      )
    },
    stateTestMs,
  )

  // Last: it moves M2's sandbox clock forward.
  it(
    "expired: says when, that no money was taken, and to ask for a new link",
    async () => {
      const { url } = await createOrder("M2", { expiredTime: Date.now() + 60_000 })
      await gateway.advanceClock(2, "M2")
      await lookAt(
        "expired",
        url,
        { en: "This payment link has expired", ar: "انتهت صلاحية رابط الدفع" },
        { en: ["No money was taken.", "for a new payment link."], ar: ["لم يُخصم أي مبلغ", "رابط دفع جديدًا"] },
      )
    },
    stateTestMs,
  )
})
