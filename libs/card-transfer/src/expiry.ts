/**
 * Card expiry (spec: 12. Bank card transfer): expiryMonth 1 to 12,
 * expiryYear four digits, and the two together the current month or later.
 * "Current" is the month in UAE time (Gulf Standard Time, UTC+04:00, no
 * daylight saving), where the service runs: at 2026-01-31 21:00 UTC it is
 * already February in Dubai, and a card that expired in January is refused.
 */
import { hourMs, type Rejection, rejectField, type Timestamp } from "@mizan/kernel"

export const gulfStandardTimeOffsetMs = 4 * hourMs

const yearPattern = /^[0-9]{4}$/
/** 1 to 12, with or without a leading zero ("3", "03"). */
const monthPattern = /^(0?[1-9]|1[0-2])$/

/** Months since year 0: 2026-03 is 2026 * 12 + 2. */
export const monthIndexAt = (now: Timestamp): number => {
  const local = new Date(now + gulfStandardTimeOffsetMs)
  return local.getUTCFullYear() * 12 + local.getUTCMonth()
}

/** The expiry as a month index, or undefined when year or month is malformed. */
export const expiryMonthIndex = (expiryYear: string, expiryMonth: string): number | undefined =>
  yearPattern.test(expiryYear) && monthPattern.test(expiryMonth)
    ? Number(expiryYear) * 12 + Number(expiryMonth) - 1
    : undefined

const invalid = (field: "expiryYear" | "expiryMonth", rest: string): Rejection =>
  rejectField("INVALID_PARAMETER", field, rest)

/** What is wrong with an expiry at `now` (400 INVALID_PARAMETER naming the field), or undefined. Never repeats the values. */
export const expiryProblem = (expiryYear: string, expiryMonth: string, now: Timestamp): Rejection | undefined => {
  if (!yearPattern.test(expiryYear)) return invalid("expiryYear", "must be a year of 4 digits")
  if (!monthPattern.test(expiryMonth)) return invalid("expiryMonth", "must be a month from 1 to 12")
  const expiry = Number(expiryYear) * 12 + Number(expiryMonth) - 1
  return expiry < monthIndexAt(now)
    ? invalid("expiryYear", "and expiryMonth must be the current month or later: the card has expired")
    : undefined
}
