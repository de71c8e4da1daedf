import { Schema } from "effect"
import { WholeNumber } from "./whole-number.ts"

/** Milliseconds since the Unix epoch (13 digits in practice). */
export const Timestamp = WholeNumber.check(
  Schema.isBetween(
    { minimum: 0, maximum: 8_640_000_000_000_000 },
    { message: "must be a time in milliseconds since 1970-01-01" },
  ),
).pipe(Schema.brand("Timestamp"))
export type Timestamp = typeof Timestamp.Type

export const timestamp = (ms: number): Timestamp => Schema.decodeSync(Timestamp)(ms)

export const minuteMs = 60_000
export const hourMs = 60 * minuteMs
export const dayMs = 24 * hourMs

export const addMs = (at: Timestamp, ms: number): Timestamp => (at + ms) as Timestamp

/** `yyyyMMddHHmmss` in UTC, the deprecated `notify_time` format. */
export const formatCompactUtc = (at: Timestamp): string => {
  const d = new Date(at)
  const two = (n: number) => String(n).padStart(2, "0")
  return `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`
}
