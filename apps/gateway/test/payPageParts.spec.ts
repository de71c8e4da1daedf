/**
 * The pay page's pure parts: which language a browser gets, readable text
 * on any brand colour, and how the time left is told.
 */
import { test as propertyTest } from "@fast-check/vitest"
import type { Timestamp } from "@mizan/kernel"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { contrastRatio, textColorOn } from "../src/payPage/brand.ts"
import { formatGulfTime, formatMoney, timeLeft } from "../src/payPage/format.ts"
import { languageOf, preferredLanguage } from "../src/payPage/language.ts"

describe("the payer's language", () => {
  it("is the first of English and Arabic the browser ranks highest, English when it names neither", () => {
    expect(preferredLanguage("ar-AE,ar;q=0.9,en;q=0.8")).toBe("ar")
    expect(preferredLanguage("en-GB,en;q=0.9,ar;q=0.8")).toBe("en")
    expect(preferredLanguage("fr-FR,fr;q=0.9,ar;q=0.5,en;q=0.4")).toBe("ar")
    expect(preferredLanguage("en;q=0.2, ar;q=0.7")).toBe("ar")
    expect(preferredLanguage("ar;q=0, en")).toBe("en")
    expect(preferredLanguage("de-DE")).toBe("en")
    expect(preferredLanguage(undefined)).toBe("en")
  })

  it("is the switch link's choice when it names one of ours, and the browser's otherwise", () => {
    expect(languageOf(new URLSearchParams("lang=ar"), "en")).toEqual({ language: "ar", chosen: true })
    expect(languageOf(new URLSearchParams("lang=xx"), "ar")).toEqual({ language: "ar", chosen: false })
  })
})

describe("the Pay button's text on a brand colour", () => {
  const hexColor = fc
    .array(fc.integer({ min: 0, max: 255 }), { minLength: 3, maxLength: 3 })
    .map((channels) => `#${channels.map((c) => c.toString(16).padStart(2, "0")).join("")}`)

  propertyTest.prop([hexColor], { numRuns: 500 })("reaches WCAG AA's 4.5:1 on any colour", (brand) => {
    expect(contrastRatio(brand, textColorOn(brand))).toBeGreaterThanOrEqual(4.5)
  })

  it("is white on the default blue and black on a light yellow, with the ratios WCAG gives", () => {
    expect(textColorOn("#1b4fa0")).toBe("#ffffff")
    expect(textColorOn("#f5c400")).toBe("#000000")
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5)
  })
})

describe("times and amounts as the payer reads them", () => {
  const at = (iso: string) => Date.parse(iso) as Timestamp

  it("tells the whole hours and minutes left, never more than there are", () => {
    const now = at("2026-11-24T10:00:00Z")
    expect(timeLeft(now, at("2026-11-24T11:58:59Z"))).toEqual({ hours: 1, minutes: 58 })
    expect(timeLeft(now, at("2026-11-24T10:00:59Z"))).toEqual({ hours: 0, minutes: 0 })
    expect(timeLeft(now, at("2026-11-24T09:00:00Z"))).toEqual({ hours: 0, minutes: 0 })
  })

  it("says instants in Gulf time, four hours ahead of UTC, and amounts exactly in both languages", () => {
    expect(formatGulfTime(at("2026-11-24T20:30:00Z"), "en")).toBe("25 Nov 2026, 00:30")
    expect(formatMoney(123_450 as never, "en")).toBe("AED 1,234.50")
    expect(formatMoney(99_999_999_999_999 as never, "ar")).toContain("999,999,999,999.99")
  })
})
