import { describe, expect, it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { Effect, Layer } from "effect"
import fc from "fast-check"
import {
  HolderNameLookup,
  HolderNameLookupUnavailable,
  layerHolderNameDirectory,
  maskHolderName,
  nameMatchingLevel,
  nameMatchingResultOf,
  queryIbanHolderName,
} from "../src/index.ts"

describe("holder name matching", () => {
  it.each([
    ["JOHN SMITH", "JOHN SMITH", "EXACT", "MATCH"],
    ["john  smith", "JOHN SMITH", "EXACT", "MATCH"],
    ["José Müller", "JOSE MULLER", "EXACT", "MATCH"],
    ["O'Brien, Mary-Ann", "O BRIEN MARY ANN", "EXACT", "MATCH"],
    ["SMITH JOHN", "JOHN SMITH", "REORDERED", "MATCH"],
    ["J SMITH", "JOHN SMITH", "PARTIAL", "CLOSE_MATCH"],
    ["JOHN SMITH", "JOHN ALAN SMITH", "PARTIAL", "CLOSE_MATCH"],
    ["JOHN A SMITH", "JOHN ALAN SMITH", "PARTIAL", "CLOSE_MATCH"],
    ["J A", "JOHN ALAN SMITH", "NONE", "NO_MATCH"],
    ["JOHN DOE", "JOHN SMITH", "NONE", "NO_MATCH"],
    ["MARY JONES", "JOHN SMITH", "NONE", "NO_MATCH"],
    ["", "JOHN SMITH", "NONE", "NO_MATCH"],
  ])("rates %j against the registered %j as %s, %s", (requested, registered, level, result) => {
    const found = nameMatchingLevel(requested, registered)
    expect(found).toBe(level)
    expect(nameMatchingResultOf[found]).toBe(result)
  })

  const word = fc.stringMatching(/^[A-Z]{2,8}$/)
  test.prop([fc.array(word, { minLength: 1, maxLength: 4 })], { numRuns: 100 })(
    "rates any name against itself EXACT and against its words reversed at least REORDERED",
    (words) => {
      expect(nameMatchingLevel(words.join(" "), words.join(" "))).toBe("EXACT")
      expect(["EXACT", "REORDERED"]).toContain(nameMatchingLevel([...words].reverse().join(" "), words.join(" ")))
    },
  )

  it.each([
    ["JOHN SMITH", "J*** S****"],
    ["JOHN A SMITH", "J*** A S****"],
    ["  Émile   Zola ", "É****   Z***"],
  ])("masks %j as %j", (name, masked) => {
    expect(maskHolderName(name)).toBe(masked)
  })
})

const registered = { DE89370400440532013000: "JOHN ALAN SMITH" }
/** The query's answer, or its refusal, as a plain value. */
const query = (request: Parameters<typeof queryIbanHolderName>[0], layer = layerHolderNameDirectory(registered)) =>
  Effect.provide(
    queryIbanHolderName(request).pipe(
      Effect.map((success) => ({ _tag: "Success" as const, success })),
      Effect.catch((failure) => Effect.succeed({ _tag: "Failure" as const, failure })),
    ),
    layer,
  )

describe("IBAN holder name query", () => {
  it.effect("answers the masked name, its level and its result", () =>
    Effect.gen(function* () {
      const answer = yield* query({ iban: "de89 3704 0044 0532 0130 00", holderName: "John Smith" })
      expect(answer).toMatchObject({
        _tag: "Success",
        success: { holderNameMask: "J*** A*** S****", nameMatchingLevel: "PARTIAL", nameMatchingResult: "CLOSE_MATCH" },
      })
    }),
  )

  it.effect("refuses an IBAN that fails ISO 13616 with 62101 before asking the bank", () =>
    Effect.gen(function* () {
      const never = Layer.succeed(HolderNameLookup, {
        registeredHolderName: () => Effect.die("the lookup must not be called"),
      })
      const answer = yield* query({ iban: "DE88370400440532013000", holderName: "JOHN SMITH" }, never)
      expect(answer).toMatchObject({ _tag: "Failure", failure: { code: "WRONG_IBAN_FORMAT" } })
    }),
  )

  it.effect("refuses holderName plus beneficiaryAddress above 140 characters with 400", () =>
    Effect.gen(function* () {
      const holderName = "N".repeat(70)
      const fits = yield* query({ iban: "DE89370400440532013000", holderName, beneficiaryAddress: "A".repeat(70) })
      expect(fits._tag).toBe("Success")
      const tooLong = yield* query({ iban: "DE89370400440532013000", holderName, beneficiaryAddress: "A".repeat(71) })
      expect(tooLong).toMatchObject({ _tag: "Failure", failure: { code: "INVALID_PARAMETER" } })
    }),
  )

  it.effect("counts characters, not UTF-16 units, towards the 140", () =>
    Effect.gen(function* () {
      const answer = yield* query({ iban: "DE89370400440532013000", holderName: "𝐉".repeat(140) })
      expect(answer._tag).toBe("Success")
    }),
  )

  it.effect("answers 62102 NAME_NOT_FOUND when the bank knows no holder", () =>
    Effect.gen(function* () {
      const answer = yield* query({ iban: "GB82WEST12345698765432", holderName: "JOHN SMITH" })
      expect(answer).toMatchObject({ _tag: "Failure", failure: { code: "NAME_NOT_FOUND" } })
    }),
  )

  it.effect("answers 62103 QUERY_API_UNAVAILABLE when the lookup fails", () =>
    Effect.gen(function* () {
      const down = Layer.succeed(HolderNameLookup, {
        registeredHolderName: () => Effect.fail(new HolderNameLookupUnavailable({ detail: "timeout" })),
      })
      const answer = yield* query({ iban: "DE89370400440532013000", holderName: "JOHN SMITH" }, down)
      expect(answer).toMatchObject({ _tag: "Failure", failure: { code: "QUERY_API_UNAVAILABLE" } })
    }),
  )
})
