/**
 * A bound says its unit last (`appendBatchMaxEvents`, `clearMaxChars`,
 * `bodyLimitBytes`), never between the thing and the bound
 * (`appendBatchEventsMax`). Refused: an identifier in which a unit word is
 * followed at once by `Max`, `Min` or `Limit` (camelCase, PascalCase or
 * SCREAMING_SNAKE). Only identifiers are read: an old name kept for
 * compatibility is written as a string, in its rename table.
 */
import type { Finding, Rule } from "../rule.ts"
import { walk } from "../syntax.ts"

/** The words that are a unit: of time, of size, and of what a count counts. */
export const unitWords = [
  "Ms",
  "Seconds",
  "Minutes",
  "Hours",
  "Days",
  "Bytes",
  "Chars",
  "Lines",
  "Events",
  "Appends",
  "Attempts",
  "Requests",
  "Pages",
  "Rows",
  "Fils",
] as const

const boundWords = ["Max", "Min", "Limit"] as const

const camel = new RegExp(`(${unitWords.join("|")})(${boundWords.join("|")})(?![a-z])`)
const snake = new RegExp(
  `(^|_)(${unitWords.map((w) => w.toUpperCase()).join("|")})_(${boundWords.map((w) => w.toUpperCase()).join("|")})(_|$)`,
)

/** Whether an identifier puts a unit before its bound. */
export const isUnitFirst = (name: string): boolean => camel.test(name) || snake.test(name)

export const unitLast: Rule = {
  id: "unit-last",
  says: "a bound's name says its unit last (appendBatchMaxEvents, not appendBatchEventsMax)",
  ratchet: false,
  find: (file) => {
    const found = new Map<string, Finding>()
    walk(file.program, (node) => {
      if (node.type !== "Identifier") return
      const name = node.name as string
      if (!isUnitFirst(name) || found.has(name)) return
      found.set(name, { file: file.path, name, line: file.lineOf(node.start), detail: "unit before its bound" })
    })
    return [...found.values()]
  },
}
