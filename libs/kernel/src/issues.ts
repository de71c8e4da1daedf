import { SchemaIssue } from "effect"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** A field path as a developer writes it: `sharingParamList[0].sharingAmountFils`. */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`),
    "",
  )

/** One broken rule: where, and what rule. */
export interface FieldProblem {
  readonly path: string
  readonly message: string
}

const typeWords: Record<string, string> = {
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "a list",
}

/**
 * Effect's default leaf messages in a merchant developer's words. Inputs are
 * never echoed: a rejected field may hold a card number.
 */
const plain = (message: string): string => {
  if (message === "Missing key") return "is required"
  // A key the schema does not name, when the decode refuses those (`onExcessProperty: "error"`).
  if (message.startsWith("Unexpected key") || message === "Expected no excess property") return "is not a known field"
  if (!message.startsWith("Expected ")) return message
  const expected = message.slice("Expected ".length).replace(/, got .*$/s, "")
  // A set of texts, which Effect writes `"A" | "B" | "C"`: as the fields that say theirs by hand, `"A", "B" or "C"`.
  if (/^"[^"]*"( \| "[^"]*")+$/.test(expected)) {
    const values = expected.split(" | ")
    return `must be ${values.slice(0, -1).join(", ")} or ${values.at(-1)}`
  }
  return `must be ${typeWords[expected] ?? expected}`
}

/** The problems a schema decode found, each naming its field path and the rule broken. */
export const describeIssue = (
  issue: SchemaIssue.Issue,
  pathPrefix: ReadonlyArray<PropertyKey> = [],
): ReadonlyArray<FieldProblem> =>
  formatter(issue).issues.map((problem) => ({
    path: formatPath([...pathPrefix, ...(problem.path ?? []).map((p) => (typeof p === "object" ? p.key : p))]),
    message: plain(problem.message),
  }))

/**
 * The problems as one sentence, each naming its field under `pathPrefix`:
 * "subject must be at most 12 characters; ..." (the merchant API prefixes
 * the body's key, as its developers write the path).
 */
export const issueMessage = (issue: SchemaIssue.Issue, pathPrefix: ReadonlyArray<PropertyKey> = []): string =>
  describeIssue(issue, pathPrefix)
    .map((p) => (p.path === "" ? p.message : `${p.path} ${p.message}`))
    .join("; ")
