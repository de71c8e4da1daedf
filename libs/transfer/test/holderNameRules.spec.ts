/**
 * The holder-name rules of the IBAN query (README, "Holder name"), each on
 * both sides: the pair of names that just meets a level's rule, and the one
 * that just misses it. And what the query passes to the bank's lookup and
 * says when it refuses.
 */

import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Result, Schema } from "effect"
import {
  HolderNameLookup,
  type HolderNameLookupRequest,
  HolderNameLookupUnavailable,
  HolderNameNotFound,
  layerHolderNameDirectory,
  maskHolderName,
  NameMatchingLevel,
  NameMatchingResult,
  nameMatchingLevel,
  nameWords,
  queryIbanHolderName,
} from "../src/index.ts"

describe("rule: names are compared as words, upper-cased, accents removed, anything not a letter or digit a space", () => {
  it.each<[string, ReadonlyArray<string>]>([
    ["  --Ünal 2nd-- ", ["UNAL", "2ND"]],
    ["Zoë\tO'Neil", ["ZOE", "O", "NEIL"]],
    ["محمد  علي", ["محمد", "علي"]],
    ["!!!", []],
    ["", []],
  ])("%j reads as %j", (name, words) => expect(nameWords(name)).toEqual(words))
})

describe("rule: PARTIAL needs every word of the shorter name paired, and one whole word of 2+ characters", () => {
  it.each<[string, string, string, string]>([
    ["a two-letter whole word and an initial", "AL J", "AL JOHN SMITH", "PARTIAL"],
    ["a one-letter whole word and an initial", "A J", "A JOHN SMITH", "NONE"],
    ["initials only", "J S", "JOHN SMITH", "NONE"],
    ["a whole word and a last-name initial", "JOHN S", "JOHN SMITH", "PARTIAL"],
    ["initials in the registered name", "JOHN SMITH", "J SMITH", "PARTIAL"],
    ["the registered name shorter, with an initial", "JOHN SMITH", "JOHN S", "PARTIAL"],
    ["an initial and a whole word out of order", "SMITH J", "JOHN SMITH", "PARTIAL"],
    ["a one-letter whole word among whole words", "A JOHN", "JOHN A SMITH", "PARTIAL"],
    ["a two-letter abbreviation, which is no initial", "JO SMITH", "JOHN SMITH", "NONE"],
    ["one initial for two words", "J J", "JOHN SMITH", "NONE"],
    ["one word for two", "JOHN JOHN", "JOHN SMITH", "NONE"],
    ["a requested name with no words", "!!!", "JOHN", "NONE"],
    ["a registered name with no words", "JOHN", "", "NONE"],
    ["digits compared as words", "JOHN 2", "john 2", "EXACT"],
    ["the registered name shorter, all whole words", "JOHN ALAN SMITH", "JOHN SMITH", "PARTIAL"],
    ["one initial word for two initials", "JOHN J J", "JOHN JAMES SMITH", "NONE"],
    ["the same letters in other words", "AB C", "A BC", "NONE"],
    ["two names with no words", "!!!", "", "NONE"],
  ])("%s: %j against %j is %s", (_, requested, registered, level) =>
    expect(nameMatchingLevel(requested, registered)).toBe(level),
  )
})

describe("the levels and results the query answers", () => {
  it.each([
    [NameMatchingLevel, ["EXACT", "REORDERED", "PARTIAL", "NONE"], "FUZZY"],
    [NameMatchingResult, ["MATCH", "CLOSE_MATCH", "NO_MATCH"], "MAYBE"],
  ] as const)("decode each value the spec's answer carries, and no other", (schema, values, other) => {
    for (const value of values) expect(Schema.decodeUnknownSync(schema)(value)).toBe(value)
    expect(() => Schema.decodeUnknownSync(schema)(other)).toThrow()
  })
})

describe("rule: the mask keeps each word's first character and the spaces", () => {
  it.each([
    ["A\tBC  D", "A\tB*  D"],
    ["Ü", "Ü"],
    ["   ", ""],
  ])("masks %j as %j", (name, masked) => expect(maskHolderName(name)).toBe(masked))
})

describe("the IBAN holder name query", () => {
  const iban = "DE89370400440532013000"
  /** A directory that remembers what it was asked. */
  const recording = () => {
    const asked: Array<HolderNameLookupRequest> = []
    const layer = Layer.succeed(HolderNameLookup, {
      registeredHolderName: (request) => {
        asked.push(request)
        return Effect.succeed("JOHN SMITH")
      },
    })
    return { asked, layer }
  }
  const run = (query: Parameters<typeof queryIbanHolderName>[0], layer: Layer.Layer<HolderNameLookup>) =>
    Effect.provide(Effect.result(queryIbanHolderName(query)), layer)

  it("names its errors by tag, so an adapter can catch each", () => {
    expect(new HolderNameNotFound()._tag).toBe("HolderNameNotFound")
    expect(new HolderNameLookupUnavailable({ detail: "timeout" })._tag).toBe("HolderNameLookupUnavailable")
  })

  it.effect("passes the swiftCode to the lookup when the merchant gave one, and none otherwise", () =>
    Effect.gen(function* () {
      const { asked, layer } = recording()
      yield* run({ iban, holderName: "JOHN SMITH", swiftCode: "COBADEFF" }, layer)
      yield* run({ iban, holderName: "JOHN SMITH" }, layer)
      expect(asked).toStrictEqual([{ iban, swiftCode: "COBADEFF" }, { iban }])
    }),
  )

  it.effect("answers an exact match as MATCH", () =>
    Effect.gen(function* () {
      const answer = yield* run({ iban, holderName: "John Smith" }, recording().layer)
      expect(Result.getOrThrow(answer)).toEqual({
        holderNameMask: "J*** S****",
        nameMatchingLevel: "EXACT",
        nameMatchingResult: "MATCH",
      })
    }),
  )

  it.effect.each<[string, Layer.Layer<HolderNameLookup>, Parameters<typeof queryIbanHolderName>[0], object]>([
    [
      "an IBAN with wrong check digits",
      layerHolderNameDirectory({}),
      { iban: "DE88370400440532013000", holderName: "JOHN SMITH" },
      { code: "WRONG_IBAN_FORMAT", detail: "iban check digits do not verify (ISO 7064 mod 97-10)" },
    ],
    [
      "a holder name and address of 141 characters",
      layerHolderNameDirectory({}),
      { iban, holderName: "N".repeat(100), beneficiaryAddress: "A".repeat(41) },
      {
        code: "INVALID_PARAMETER",
        detail: "holderName plus beneficiaryAddress must be at most 140 characters",
      },
    ],
    [
      "an IBAN the bank does not know",
      layerHolderNameDirectory({}),
      { iban, holderName: "JOHN SMITH" },
      { code: "NAME_NOT_FOUND", detail: "no holder name is registered for the IBAN" },
    ],
    [
      "a lookup that is down",
      Layer.succeed(HolderNameLookup, {
        registeredHolderName: () => Effect.fail(new HolderNameLookupUnavailable({ detail: "timeout" })),
      }),
      { iban, holderName: "JOHN SMITH" },
      { code: "QUERY_API_UNAVAILABLE", detail: "the holder name lookup is unavailable, retry later" },
    ],
  ])("refuses %s, saying why", ([_, layer, query, refusal]) =>
    Effect.gen(function* () {
      const answer = yield* run(query, layer)
      expect(Result.isFailure(answer) && answer.failure).toMatchObject(refusal)
    }),
  )

  it.effect("takes a holder name alone of 140 characters", () =>
    Effect.gen(function* () {
      const answer = yield* run({ iban, holderName: "N".repeat(140) }, recording().layer)
      expect(Result.isSuccess(answer)).toBe(true)
    }),
  )
})
