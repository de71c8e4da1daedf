import { Schema } from "effect"

/**
 * Characters as the spec's String(n) counts them: Unicode code points, so a
 * 12-emoji subject is 12 characters although JavaScript holds it in 24
 * UTF-16 units.
 */
export const characterCount = (text: string): number => {
  let count = text.length
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    // A high surrogate followed by a low one is one character held in two units.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--
        i++
      }
    }
  }
  return count
}

const tab = 0x09
const newline = 0x0a

/** C0 and C1 control characters and DEL, except tab and newline, which text fields may hold. */
const isRefusedControl = (unit: number): boolean =>
  (unit < 0x20 && unit !== tab && unit !== newline) || (unit >= 0x7f && unit <= 0x9f)

/** Text a field may hold: well-formed Unicode (no lone surrogate), no control character but tab and newline. */
export const isPlainText = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (isRefusedControl(text.charCodeAt(i))) return false
  return text.isWellFormed()
}

const plainText = Schema.makeFilter(isPlainText, {
  message: "must be text without control characters (other than tab and newline) or lone surrogates",
})

/** JSON Schema's `maxLength` counts characters as this does, so descriptions (the OpenAPI) say `maxLength`. */
const atMostCharacters = (maxLength: number) =>
  Schema.makeFilter((text: string) => characterCount(text) <= maxLength, {
    message: `must be at most ${maxLength} characters`,
    representation: { id: "effect/schema/isMaxLength", payload: { maxLength } },
    toJsonSchema: () => ({ maxLength }),
  })

/** A string field of text: no control characters or lone surrogates (see `isPlainText`). */
export const PlainText = Schema.String.check(plainText)

/** The spec's String(n): text of at most `n` characters (code points). */
export const BoundedString = (maxLength: number) => Schema.String.check(plainText, atMostCharacters(maxLength))

/** A required String(n): at least one character that is not white space, at most `n`. */
export const RequiredString = (maxLength: number) =>
  Schema.String.check(
    plainText,
    atMostCharacters(maxLength),
    Schema.makeFilter((s: string) => s.trim().length > 0, { message: "must not be empty" }),
  )

/** The spec's text booleans ("true" / "false"), as in `revoked`, `changePayer`, `oneTimePayment`. */
export const TextBoolean = Schema.Literals(["true", "false"]).annotate({
  message: 'must be the text "true" or "false"',
})
export type TextBoolean = typeof TextBoolean.Type
