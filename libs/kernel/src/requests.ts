/**
 * Helpers every aggregate's decider shares: stream ids keyed by merchant and
 * order number, the "same request again?" test of idempotency, and the
 * request schema's rules checked on the decoded side.
 */
import { Equal, Result, Schema } from "effect"
import { describeIssue, issueMessage } from "./issues.ts"
import { type Rejection, reject, rejectField } from "./rejection.ts"

const escapePart = (part: string): string => part.replaceAll("%", "%25").replaceAll("/", "%2F")

/**
 * A stream id of one aggregate instance, keyed by its parts
 * (docs/architecture.md#consistency). Injective even when the parts contain the separator: each
 * part escapes "%" and "/" before the parts are joined with "/", so
 * splitting and unescaping gives the parts back.
 */
export const streamIdOf = (kind: string, ...parts: ReadonlyArray<string>): string =>
  [kind, ...parts.map(escapePart)].join("/")

/**
 * Whether a repeated request carries the same parameters as the one
 * recorded: every field of the request schema compares equal (absent on
 * both sides counts as equal). Fields the edge adds (the service's orderNo,
 * requestTime, looked-up values) are not parameters, so a retry with a
 * fresh orderNo is still the same request.
 */
export const sameRequest = (fields: Readonly<Record<string, unknown>>, request: object, recorded: object): boolean =>
  Object.keys(fields).every((key) =>
    Equal.equals((request as Record<string, unknown>)[key], (recorded as Record<string, unknown>)[key]),
  )

/**
 * A command's request checked against its schema's rules (lengths, formats,
 * positive amounts) on the decoded side, so a decider owns every rule even
 * when a caller built the command by hand: 400 INVALID_PARAMETER naming the
 * field as the command's request names it, as "swiftCode must be 8 to 11
 * letters and digits". The decode stops at the first broken rule, as a
 * decider does: one field, carried as the refusal's `field`.
 */
export const checkRequest = <S extends Schema.Constraint>(schema: S, request: S["Type"]): Rejection | undefined => {
  const checked = Schema.decodeUnknownResult(Schema.toType(schema))(request)
  if (Result.isSuccess(checked)) return undefined
  const [problem] = describeIssue(checked.failure.issue)
  if (problem === undefined || problem.path === "")
    return reject("INVALID_PARAMETER", issueMessage(checked.failure.issue))
  return rejectField("INVALID_PARAMETER", problem.path, problem.message)
}
