/**
 * How the audit writes values a reader or a machine must read exactly:
 * money totals (bigint fils) as decimals, states that hold bigints and Maps
 * as JSON, times as ISO text.
 */
const filsPerDirhamBig = 100n

/** A bigint count of fils as its decimal in AED: 123456n is "1234.56", -5n is "-0.05". */
export const formatFilsBig = (fils: bigint): string => {
  const sign = fils < 0n ? "-" : ""
  const magnitude = fils < 0n ? -fils : fils
  const whole = magnitude / filsPerDirhamBig
  const fraction = (magnitude % filsPerDirhamBig).toString().padStart(2, "0")
  return `${sign}${whole}.${fraction}`
}

/** The same with thousands separators, for people: "1,234.56". */
export const formatFilsBigGrouped = (fils: bigint): string => {
  const [whole = "", fraction = ""] = formatFilsBig(fils).split(".")
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`
}

/**
 * A JSON replacer for domain states: bigints (payout amounts in minor units,
 * positions) become decimal strings, Maps (a member account's credits)
 * objects, Sets lists.
 */
export const jsonReplacer = (_key: string, value: unknown): unknown => {
  if (typeof value === "bigint") return value.toString()
  if (value instanceof Map) return Object.fromEntries(value)
  if (value instanceof Set) return [...value]
  return value
}

export const toJson = (value: unknown, indent?: number): string => JSON.stringify(value, jsonReplacer, indent)

/** A recorded time as ISO text (UTC). */
export const isoTime = (ms: number): string => new Date(ms).toISOString()

export const formatCount = (n: number | bigint): string => n.toLocaleString("en-US")

/** A count and its noun, plural but for one: "1 event", "2 events". */
export const counted = (n: number, noun: string): string => `${formatCount(n)} ${noun}${n === 1 ? "" : "s"}`
