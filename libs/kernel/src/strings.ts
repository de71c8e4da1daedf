import { Schema } from "effect"

/** The spec's String(n): a string of at most `n` characters. */
export const BoundedString = (maxLength: number) =>
  Schema.String.check(Schema.isMaxLength(maxLength, { message: `must be at most ${maxLength} characters` }))

/** A required String(n): at least one character that is not white space, at most `n`. */
export const RequiredString = (maxLength: number) =>
  Schema.String.check(
    Schema.isMaxLength(maxLength, { message: `must be at most ${maxLength} characters` }),
    Schema.makeFilter((s: string) => s.trim().length > 0, { message: "must not be empty" }),
  )

/** The spec's text booleans ("true" / "false"), as in `revoked`, `changePayer`, `oneTimePayment`. */
export const TextBoolean = Schema.Literals(["true", "false"]).annotate({
  message: 'must be the text "true" or "false"',
})
export type TextBoolean = typeof TextBoolean.Type
