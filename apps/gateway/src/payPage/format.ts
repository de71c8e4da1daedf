/**
 * Amounts, instants and durations as a payer in the Gulf reads them, in the
 * page's language: the service keeps UTC and fils; the payer sees dirhams
 * and Gulf time (Asia/Dubai), and how long is left rather than a clock
 * time in a zone they must convert.
 */
import { type Fils, formatAed, formatFils, minuteMs, type Timestamp } from "@mizan/kernel"
import type { Language } from "./language.ts"

/** The payer's time zone: the UAE's, which has no daylight saving. */
export const payerTimeZone = "Asia/Dubai"

const locales: Readonly<Record<Language, string>> = { en: "en-GB", ar: "ar-AE" }

/** `AED 1,234.50` in English; `‏1,234.50 د.إ.‏` in Arabic. Exact: formatted from the decimal text, never a float. */
export const formatMoney = (fils: Fils, language: Language): string =>
  language === "en"
    ? formatAed(fils)
    : new Intl.NumberFormat(locales.ar, { style: "currency", currency: "AED" }).format(formatFils(fils) as `${number}`)

/** `24 Nov 2026, 14:03` in Gulf time. */
export const formatGulfTime = (at: Timestamp, language: Language): string =>
  new Intl.DateTimeFormat(locales[language], {
    timeZone: payerTimeZone,
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at)

/** Whole hours and minutes left before `until`, rounded down: a payer is never told there is more time than there is. */
export const timeLeft = (now: Timestamp, until: Timestamp): { readonly hours: number; readonly minutes: number } => {
  const minutesLeft = Math.max(0, Math.floor((until - now) / minuteMs))
  return { hours: Math.floor(minutesLeft / 60), minutes: minutesLeft % 60 }
}
