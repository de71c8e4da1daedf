import { test } from "@fast-check/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ibanLengthByCountry, ibanMod97, parseIban } from "../src/index.ts"

/** Example IBANs published in the SWIFT IBAN Registry and by national banks, one or more per country. */
const publishedIbans = [
  "AD1200012030200359100100",
  "AE070331234567890123456",
  "AL47212110090000000235698741",
  "AT611904300234573201",
  "AZ21NABZ00000000137010001944",
  "BA391290079401028494",
  "BE68539007547034",
  "BG80BNBG96611020345678",
  "BH67BMAG00001299123456",
  "BR1800360305000010009795493C1",
  "BY13NBRB3600900000002Z00AB00",
  "CH9300762011623852957",
  "CR05015202001026284066",
  "CY17002001280000001200527600",
  "CZ6508000000192000145399",
  "DE89370400440532013000",
  "DK5000400440116243",
  "DO28BAGR00000001212453611324",
  "EE382200221020145685",
  "EG380019000500000000263180002",
  "ES9121000418450200051332",
  "FI2112345600000785",
  "FO6264600001631634",
  "FR1420041010050500013M02606",
  "GB29NWBK60161331926819",
  "GB82WEST12345698765432",
  "GE29NB0000000101904917",
  "GI75NWBK000000007099453",
  "GL8964710001000206",
  "GR1601101250000000012300695",
  "GT82TRAJ01020000001210029690",
  "HR1210010051863000160",
  "HU42117730161111101800000000",
  "IE29AIBK93115212345678",
  "IL620108000000099999999",
  "IQ98NBIQ850123456789012",
  "IS140159260076545510730339",
  "IT60X0542811101000000123456",
  "JO94CBJO0010000000000131000302",
  "KW81CBKU0000000000001234560101",
  "KZ86125KZT5004100100",
  "LB62099900000001001901229114",
  "LC55HEMM000100010012001200023015",
  "LI21088100002324013AA",
  "LT121000011101001000",
  "LU280019400644750000",
  "LV80BANK0000435195001",
  "MC5811222000010123456789030",
  "MD24AG000225100013104168",
  "ME25505000012345678951",
  "MK07250120000058984",
  "MR1300020001010000123456753",
  "MT84MALT011000012345MTLCAST001S",
  "MU17BOMM0101101030300200000MUR",
  "NL91ABNA0417164300",
  "NO9386011117947",
  "PK36SCBL0000001123456702",
  "PL61109010140000071219812874",
  "PS92PALS000000000400123456702",
  "PT50000201231234567890154",
  "QA58DOHB00001234567890ABCDEFG",
  "RO49AAAA1B31007593840000",
  "RS35260005601001611379",
  "SA0380000000608010167519",
  "SC18SSCB11010000000000001497USD",
  "SE4550000000058398257466",
  "SI56263300012039086",
  "SK3112000000198742637541",
  "SM86U0322509800000000270100",
  "ST68000100010051845310112",
  "SV62CENR00000000000000700025",
  "TL380080012345678910157",
  "TN5910006035183598478831",
  "TR330006100519786457841326",
  "UA213223130000026007233566001",
  "VA59001123000012345678",
  "VG96VPVG0000012345678901",
  "XK051212012345678906",
  "LY83002048000020100120361",
  "SD2129010501234001",
  "RU0304452522540817810538091310419",
  "BI4210000100010000332045181",
  "DJ2100010000000154000100186",
  "FK88SC123456789012",
  "MN121234123456789123",
  "NI45BAPR00000013000003558124",
  "SO211000001001000100141",
  "OM040280000012345678901",
  "YE15CBYE0001018861234567891234",
  "HN88CABF00000000000250005469",
]

const codeOf = (text: string) => {
  const parsed = parseIban(text)
  return Result.isFailure(parsed) ? parsed.failure.code : "ACCEPTED"
}

/** A valid IBAN for a country and BBAN: the check digits are 98 - (mod 97 of the IBAN with "00"). */
const withCheckDigits = (country: string, bban: string): string => {
  const check = 98 - ibanMod97(`${country}00${bban}`)
  return `${country}${String(check).padStart(2, "0")}${bban}`
}

const alphanumeric = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split(""))
const countries = [...ibanLengthByCountry.keys()]

/** A country and a random BBAN of that country's length. */
const countryAndBban = fc.constantFrom(...countries).chain((country) =>
  fc
    .array(alphanumeric, {
      minLength: (ibanLengthByCountry.get(country) ?? 0) - 4,
      maxLength: (ibanLengthByCountry.get(country) ?? 0) - 4,
    })
    .map((chars) => ({ country, bban: chars.join("") })),
)

describe("IBAN validation (ISO 13616)", () => {
  it.each(publishedIbans)("accepts the published example %s", (iban) => {
    expect(Result.getOrThrow(parseIban(iban))).toBe(iban)
  })

  it("covers every country of the registry table with a published example", () => {
    const covered = new Set(publishedIbans.map((iban) => iban.slice(0, 2)))
    expect(countries.filter((country) => !covered.has(country))).toEqual([])
  })

  it("reads the paper format: spaces removed and letters upper-cased", () => {
    expect(Result.getOrThrow(parseIban("de89 3704 0044 0532 0130 00"))).toBe("DE89370400440532013000")
    expect(Result.getOrThrow(parseIban("  GB82 WEST 1234 5698 7654 32 "))).toBe("GB82WEST12345698765432")
  })

  it.each([
    ["wrong check digits", "DE88370400440532013000"],
    ["a changed account digit", "GB82WEST12345698765431"],
    ["swapped account digits", "AE070331234567890123465"],
    ["one character too few", "DE8937040044053201300"],
    ["one character too many", "FR1420041010050500013M026061"],
    ["a country with no IBAN", "US64SVBKUS6S3300958879"],
    ["an unknown country code", "ZZ1200012030200359100100"],
    ["tabs between groups", "DE89\t3704\t0044\t0532\t0130\t00"],
    ["dashes between groups", "DE89-3704-0044-0532-0130-00"],
    ["punctuation in the account", "GB82WEST1234569876543."],
    ["digits for a country code", "1289370400440532013000"],
    ["letters for check digits", "DEAB370400440532013000"],
    ["the empty string", ""],
    ["check digits 01, equal to 98 modulo 97", "GB01WEST12345698765432"],
  ])("refuses %s with 62101 WRONG_IBAN_FORMAT", (_, iban) => {
    expect(codeOf(iban)).toBe("WRONG_IBAN_FORMAT")
  })

  it("never repeats the IBAN in its refusal", () => {
    const parsed = parseIban("DE88370400440532013000")
    expect(Result.isFailure(parsed) && parsed.failure.detail).not.toContain("370400440532013000")
  })

  test.prop([countryAndBban], { numRuns: 200 })(
    "accepts every IBAN whose check digits are computed by mod 97-10",
    ({ country, bban }) => {
      expect(codeOf(withCheckDigits(country, bban))).toBe("ACCEPTED")
    },
  )

  // ISO 7064 detects a digit replaced by a digit (a difference of at most 9 at one decimal place) and a
  // letter by a letter (at most 25 at two places), since neither is a multiple of 97. A letter for a digit
  // changes the numeral's length, which the check does not always catch.
  test.prop([countryAndBban, fc.nat(), fc.nat({ max: 35 })], { numRuns: 200 })(
    "refuses every IBAN with one digit changed to another digit, or one letter to another letter",
    ({ country, bban }, position, pick) => {
      const valid = withCheckDigits(country, bban)
      const at = 2 + (position % (valid.length - 2))
      const original = valid[at] ?? ""
      const sameKind = /[0-9]/.test(original) ? "0123456789" : "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
      const replacement = sameKind[pick % sameKind.length] ?? ""
      fc.pre(replacement !== original)
      expect(codeOf(valid.slice(0, at) + replacement + valid.slice(at + 1))).toBe("WRONG_IBAN_FORMAT")
    },
  )

  test.prop([countryAndBban, fc.integer({ min: 0, max: 99 })], { numRuns: 300 })(
    "accepts an IBAN of the right country and length if and only if its check digits (02 to 98) pass mod 97",
    ({ country, bban }, check) => {
      const iban = `${country}${String(check).padStart(2, "0")}${bban}`
      const passes = check >= 2 && check <= 98 && ibanMod97(iban) === 1
      expect(codeOf(iban)).toBe(passes ? "ACCEPTED" : "WRONG_IBAN_FORMAT")
    },
  )
})
