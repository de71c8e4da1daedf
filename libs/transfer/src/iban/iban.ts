/**
 * IBAN validation by ISO 13616: a known country code, that country's
 * length, and check digits that verify by ISO 7064 mod 97-10. Anything else
 * is 62101 WRONG_IBAN_FORMAT. The refusal never repeats the IBAN: it is a
 * sensitive value (docs/architecture.md#the-domain).
 *
 * Input handling: the paper format's spaces (U+0020, any number, anywhere)
 * are removed and lower-case letters are upper-cased, so "de89 3704 0044
 * 0532 0130 00" is read as DE89370400440532013000. Any other character (tabs,
 * dashes, accents) is refused.
 */
import { type Rejection, rejectField } from "@mizan/kernel"
import { Result, Schema } from "effect"

/**
 * IBAN lengths per country, from the SWIFT IBAN Registry (the ISO 13616
 * registration authority). Territories that use another country's IBAN
 * (French overseas departments under FR, Åland under FI, ...) are not
 * listed separately: their IBANs carry that country's code.
 */
export const ibanLengthByCountry: ReadonlyMap<string, number> = new Map(
  // biome-ignore format: the registry reads best as a table
  Object.entries({
    AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
    CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
    FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28,
    IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20,
    LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28,
    NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24,
    SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26,
    UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
  }),
)

/** An IBAN in electronic format (upper case, no spaces) that passed every ISO 13616 check. */
export const Iban = Schema.String.pipe(Schema.brand("Iban"))
export type Iban = typeof Iban.Type

/** ISO 7064 mod 97-10 over the rearranged IBAN: letters count as 10..35, digits as themselves. */
export const ibanMod97 = (electronic: string): number => {
  const rearranged = electronic.slice(4) + electronic.slice(0, 4)
  let remainder = 0
  for (const char of rearranged) {
    const value = Number.parseInt(char, 36)
    remainder = (value < 10 ? remainder * 10 + value : remainder * 100 + value) % 97
  }
  return remainder
}

const shape = /^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/

const wrongFormat = (why: string): Result.Result<never, Rejection> =>
  Result.fail(rejectField("WRONG_IBAN_FORMAT", "iban", why))

export const parseIban = (text: string): Result.Result<Iban, Rejection> => {
  const electronic = text.replaceAll(" ", "").toUpperCase()
  if (!shape.test(electronic))
    return wrongFormat("must be a 2-letter country code, 2 check digits and then letters and digits")
  const length = ibanLengthByCountry.get(electronic.slice(0, 2))
  if (length === undefined) return wrongFormat("has a country code that has no IBAN in the ISO 13616 registry")
  if (electronic.length !== length) return wrongFormat(`must be ${length} characters long for its country`)
  // Check digits 00, 01 and 99 are never issued (ISO 13616 computes 98 - n mod 97, so 02..98).
  const checkDigits = Number(electronic.slice(2, 4))
  if (checkDigits < 2 || checkDigits > 98 || ibanMod97(electronic) !== 1)
    return wrongFormat("check digits do not verify (ISO 7064 mod 97-10)")
  return Result.succeed(electronic as Iban)
}
