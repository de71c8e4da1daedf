import { issueMessage, type Rejection, reject } from "@mizan/kernel"
import { Result, Schema } from "effect"

/**
 * Checks a command's request against its schema's rules (lengths, formats,
 * positive amounts) on the decoded side, so the decider owns every rule even
 * when a caller built the command by hand: 400 INVALID_PARAMETER naming the
 * field, as "bizContent.swiftCode must be 8 to 11 letters and digits".
 */
export const checkRequest = <S extends Schema.Constraint>(schema: S, request: S["Type"]): Rejection | undefined => {
  const checked = Schema.decodeUnknownResult(Schema.toType(schema))(request)
  return Result.isFailure(checked)
    ? reject("INVALID_PARAMETER", issueMessage(checked.failure.issue, ["bizContent"]))
    : undefined
}
