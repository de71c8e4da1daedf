/**
 * The IBAN holder name check (spec: 9. Query IBAN holder name, result
 * `ibanHolderName`). The spec does not show the values of
 * nameMatchingLevel and nameMatchingResult; Mizan defines them here, by
 * these names, and the wire answers them in the form of PayBy's
 * documentation (libs/order-views/src/views/ibanHolderName.ts).
 *
 * Names are compared as words: upper-cased, accents removed, anything that
 * is not a letter or digit read as a space. Then:
 *
 * | nameMatchingLevel | when                                                     | nameMatchingResult |
 * |---|---|---|
 * | EXACT     | the same words in the same order                                 | MATCH       |
 * | REORDERED | the same words in another order ("SMITH JOHN")                   | MATCH       |
 * | PARTIAL   | every word of the shorter name pairs with a different word of the longer one, equal or as its initial ("J SMITH", "JOHN SMITH" for "JOHN ALAN SMITH"), and at least one pair is a whole word of two or more characters | CLOSE_MATCH |
 * | NONE      | anything else                                                    | NO_MATCH    |
 *
 * The result is the verdict to act on (the Confirmation of Payee habit):
 * MATCH pay, CLOSE_MATCH show the masked name and ask, NO_MATCH do not pay.
 */
import { Schema } from "effect"

export const NameMatchingLevel = Schema.Literals(["EXACT", "REORDERED", "PARTIAL", "NONE"])
export type NameMatchingLevel = typeof NameMatchingLevel.Type

export const NameMatchingResult = Schema.Literals(["MATCH", "CLOSE_MATCH", "NO_MATCH"])
export type NameMatchingResult = typeof NameMatchingResult.Type

export const nameMatchingResultOf: Readonly<Record<NameMatchingLevel, NameMatchingResult>> = {
  EXACT: "MATCH",
  REORDERED: "MATCH",
  PARTIAL: "CLOSE_MATCH",
  NONE: "NO_MATCH",
}

/** The words of a name, as compared. */
export const nameWords = (name: string): ReadonlyArray<string> =>
  name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)

const sortedKey = (words: ReadonlyArray<string>): string => [...words].sort().join(" ")

const isInitialOf = (initial: string, word: string): boolean => initial.length === 1 && word.startsWith(initial)

/**
 * Whether every word of `shorter` pairs with a different word of `longer`,
 * whole words first, then initials, with at least one whole-word pair of two
 * or more characters.
 */
const pairsInto = (shorter: ReadonlyArray<string>, longer: ReadonlyArray<string>): boolean => {
  const free = [...longer]
  const unpaired: Array<string> = []
  let wholeWordPairs = 0
  for (const word of shorter) {
    const at = free.indexOf(word)
    if (at === -1) unpaired.push(word)
    else {
      free.splice(at, 1)
      if (word.length >= 2) wholeWordPairs++
    }
  }
  for (const word of unpaired) {
    const at = free.findIndex((other) => isInitialOf(word, other) || isInitialOf(other, word))
    if (at === -1) return false
    free.splice(at, 1)
  }
  return wholeWordPairs > 0
}

export const nameMatchingLevel = (requested: string, registered: string): NameMatchingLevel => {
  const a = nameWords(requested)
  const b = nameWords(registered)
  // Two names with no words would read as EXACT; a name with words never pairs with one without.
  if (a.length === 0) return "NONE"
  if (a.join(" ") === b.join(" ")) return "EXACT"
  if (sortedKey(a) === sortedKey(b)) return "REORDERED"
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a]
  return pairsInto(shorter, longer) ? "PARTIAL" : "NONE"
}

/**
 * The masked holder name: each word keeps its first character and the rest
 * become "*", spaces kept: "JOHN A SMITH" is "J*** A S****".
 */
export const maskHolderName = (name: string): string =>
  name.trim().replace(/\S+/gu, (word) => [...word].map((char, i) => (i === 0 ? char : "*")).join(""))
