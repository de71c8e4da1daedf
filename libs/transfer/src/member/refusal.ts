import { Schema } from "effect"

/**
 * Why the sandbox's member account refuses a command. These are not spec
 * codes: the member directory is behind a port, and the wallet transfer
 * turns BALANCE_LIMIT_EXCEEDED into its own FAILURE.
 */
export class MemberAccountRefusal extends Schema.TaggedError<MemberAccountRefusal>()("MemberAccountRefusal", {
  reason: Schema.Literals(["NOT_OPEN", "OPENED_DIFFERENTLY", "REFERENCE_REUSED", "BALANCE_LIMIT_EXCEEDED"]),
  detail: Schema.String,
}) {}
