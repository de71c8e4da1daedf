/** Shared by the kernel's tests: what a field rule says of a value. */
import { Result, Schema } from "effect"
import { issueMessage } from "../../src/index.ts"

/** What decoding `input` by `schema` says, its fields named after `prefix`; "ok" when it decodes. */
export const messageOf = (
  schema: Schema.Top & Schema.Decoder<unknown>,
  input: unknown,
  prefix: ReadonlyArray<string> = [],
): string => {
  const result = Schema.decodeUnknownResult(schema)(input)
  return Result.isFailure(result) ? issueMessage(result.failure.issue, prefix) : "ok"
}
