/**
 * A CORPORATE holder's companyName must be a real legal name: "not one
 * character, not all digits, not all punctuation" (spec: 12. Bank card
 * transfer). The name arrives encrypted and is kept as a digest, so the
 * edge classifies the clear name with `legalNameShape` and the command
 * carries the shape; the decider refuses any shape but PLAUSIBLE.
 *
 * Checked on the trimmed name, counting code points:
 * - EMPTY: nothing but white space;
 * - ONE_CHARACTER: a single character;
 * - ALL_DIGITS: digits (and spaces) only, "123 456";
 * - ALL_PUNCTUATION: punctuation and symbols (and spaces) only, "-- &";
 * - NO_LETTERS: digits mixed with punctuation, "12-34": not a name either;
 * - PLAUSIBLE: two or more characters with at least one letter, any script.
 */
import { Schema } from "effect"

export const LegalNameShape = Schema.Literals([
  "PLAUSIBLE",
  "EMPTY",
  "ONE_CHARACTER",
  "ALL_DIGITS",
  "ALL_PUNCTUATION",
  "NO_LETTERS",
])
export type LegalNameShape = typeof LegalNameShape.Type

export const legalNameShape = (name: string): LegalNameShape => {
  const trimmed = name.trim()
  const length = [...trimmed].length
  if (length === 0) return "EMPTY"
  if (length === 1) return "ONE_CHARACTER"
  if (/^[\p{Nd}\s]+$/u.test(trimmed)) return "ALL_DIGITS"
  if (/^[\p{P}\p{S}\s]+$/u.test(trimmed)) return "ALL_PUNCTUATION"
  if (!/\p{L}/u.test(trimmed)) return "NO_LETTERS"
  return "PLAUSIBLE"
}

/** The names' clear length in the request (spec: 12. Bank card transfer, String(50)); digests cannot show it. */
export const holderNameMaxChars = 50
