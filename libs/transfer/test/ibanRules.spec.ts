/**
 * Each ISO 13616 rule of `parseIban` on both sides, with the words of its
 * 62101 refusal: the shape, the registry's country, that country's length
 * (GB: 22), and check digits from 02 to 98 that verify by mod 97-10.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { parseIban } from "../src/index.ts"

const verdict = (text: string) => {
  const parsed = parseIban(text)
  if (Result.isSuccess(parsed)) return `accepted ${parsed.success}`
  const { code, field, detail } = parsed.failure
  return `${code} (${field}): ${detail}`
}
const refused = (why: string) => `WRONG_IBAN_FORMAT (iban): iban ${why}`

describe("rule: check digits run from 02 to 98 (ISO 13616 computes 98 - n mod 97); 00, 01 and 99 are never issued", () => {
  // Pairs whose check digits differ by 97 verify alike under mod 97: only the range tells them apart.
  it.each([
    ["GB02WEST12345698765417", "accepted GB02WEST12345698765417"],
    ["GB99WEST12345698765417", refused("check digits do not verify (ISO 7064 mod 97-10)")],
    ["GB98WEST12345698765435", "accepted GB98WEST12345698765435"],
    ["GB01WEST12345698765435", refused("check digits do not verify (ISO 7064 mod 97-10)")],
    ["GB97WEST12345698765453", "accepted GB97WEST12345698765453"],
    ["GB00WEST12345698765453", refused("check digits do not verify (ISO 7064 mod 97-10)")],
  ])("%s: %s", (iban, expected) => expect(verdict(iban)).toBe(expected))
})

describe("rule: a registry country, that country's length, letters and digits only", () => {
  it.each([
    ["GB82WEST12345698765432", "accepted GB82WEST12345698765432"],
    ["GB82WEST1234569876543", refused("must be 22 characters long for its country")],
    ["GB82WEST123456987654321", refused("must be 22 characters long for its country")],
    ["US64SVBKUS6S3300958879", refused("has a country code that has no IBAN in the ISO 13616 registry")],
    ["G182WEST12345698765432", refused("must be a 2-letter country code, 2 check digits and then letters and digits")],
    ["GBX2WEST12345698765432", refused("must be a 2-letter country code, 2 check digits and then letters and digits")],
    ["GB82", refused("must be a 2-letter country code, 2 check digits and then letters and digits")],
    ["GB82WEST1234569876543_", refused("must be a 2-letter country code, 2 check digits and then letters and digits")],
    ["XGB82WEST12345698765432", refused("must be a 2-letter country code, 2 check digits and then letters and digits")],
  ])("%s: %s", (iban, expected) => expect(verdict(iban)).toBe(expected))
})
