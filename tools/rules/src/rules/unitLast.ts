/**
 * A bound says its unit last (`appendBatchMaxEvents`, `clearMaxChars`,
 * `bodyLimitBytes`), never between the thing and the bound
 * (`appendBatchEventsMax`). Refused: an identifier in which a unit word is
 * followed at once by `Max`, `Min` or `Limit` (camelCase, PascalCase or
 * SCREAMING_SNAKE). An old name kept for compatibility is a key of a
 * rename table, an object declared as `renamed...` (`renamedConfigKeys =
 * { readyNotifierLagSecondsMax: "readyNotifierMaxLagSeconds" }`), and passes
 * in that table's file.
 */
import type { Finding, Rule } from "../rule.ts"
import { field, nameOf, type SyntaxNode, walk } from "../syntax.ts"

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

const bound = `(${boundWords.join("|")})(?![a-z])`
const camel = new RegExp(`(${unitWords.join("|")})${bound}`)
/** A name that starts with its unit: `bytesMax`. */
const leadingUnit = new RegExp(`^(${unitWords.map((w) => w.toLowerCase()).join("|")})${bound}`)
const snake = new RegExp(
  `(^|_)(${unitWords.map((w) => w.toUpperCase()).join("|")})_(${boundWords.map((w) => w.toUpperCase()).join("|")})(_|$)`,
)

/** Whether an identifier puts a unit before its bound. */
export const isUnitFirst = (name: string): boolean => camel.test(name) || leadingUnit.test(name) || snake.test(name)

/** The old names a rename table of the file lists: the keys of each object declared under a name starting `renamed`. */
const renamedNames = (program: SyntaxNode): Set<string> => {
  const names = new Set<string>()
  walk(program, (node) => {
    if (node.type !== "VariableDeclarator" || !(nameOf(field(node, "id")) ?? "").startsWith("renamed")) return
    let table = field(node, "init")
    while (table?.type === "TSAsExpression" || table?.type === "TSSatisfiesExpression")
      table = field(table, "expression")
    if (table?.type !== "ObjectExpression") return
    for (const property of table.properties as ReadonlyArray<SyntaxNode>) {
      const key = nameOf(field(property, "key"))
      if (key !== undefined) names.add(key)
    }
  })
  return names
}

export const unitLast: Rule = {
  id: "unit-last",
  says: "a bound's name says its unit last (appendBatchMaxEvents, not appendBatchEventsMax)",
  ratchet: false,
  find: (file) => {
    const found = new Map<string, Finding>()
    const renamed = renamedNames(file.program)
    walk(file.program, (node) => {
      if (node.type !== "Identifier") return
      const name = node.name as string
      if (!isUnitFirst(name) || found.has(name) || renamed.has(name)) return
      found.set(name, { file: file.path, name, line: file.lineOf(node.start), detail: "unit before its bound" })
    })
    return [...found.values()]
  },
}
