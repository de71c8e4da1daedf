import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  AmountFromWire,
  addFils,
  addMs,
  allocateProportionally,
  amountAboveZero,
  BoundedString,
  characterCount,
  checkRequest,
  codeCatalogue,
  dayMs,
  FeePlan,
  Fils,
  fils,
  formatAed,
  formatCompactUtc,
  hourMs,
  isPaySceneCode,
  isPlainText,
  isSha256Hex,
  issueMessage,
  minFils,
  minuteMs,
  noFees,
  PositiveFils,
  PositiveMoneyFromWire,
  percentageFee,
  Rejection,
  RequiredString,
  sameRequest,
  streamIdOf,
  subtractFils,
  sumFils,
  sumFilsBig,
  TextBoolean,
  Timestamp,
  timestamp,
  toWireMoney,
} from "../src/index.ts"
import { messageOf } from "./support/messageOf.ts"

describe("amount arithmetic refuses what is not an amount in fils", () => {
  it("takes 0 and 99,999,999,999,999 fils and refuses -1, a fraction and one fils more", () => {
    expect(fils(0)).toBe(0)
    expect(fils(99_999_999_999_999)).toBe(99_999_999_999_999)
    for (const n of [-1, 0.5, 100_000_000_000_000, Number.NaN])
      expect(() => fils(n)).toThrow(`not an amount in fils: ${n}`)
  })

  it("adds, subtracts, sums and takes the smaller, and throws rather than go below zero", () => {
    expect(addFils(fils(2), fils(3))).toBe(5)
    expect(subtractFils(fils(5), fils(3))).toBe(2)
    expect(subtractFils(fils(5), fils(5))).toBe(0)
    expect(() => subtractFils(fils(3), fils(5))).toThrow(RangeError)
    expect(sumFils([fils(1), fils(2), fils(3)])).toBe(6)
    expect(sumFils([])).toBe(0)
    expect(minFils(fils(2), fils(3))).toBe(2)
    expect(minFils(fils(3), fils(2))).toBe(2)
    expect(minFils(fils(3), fils(3))).toBe(3)
    expect(sumFilsBig([fils(99_999_999_999_999), fils(99_999_999_999_999), fils(2)])).toBe(200_000_000_000_000n)
  })

  it("names the rule of a Fils and a PositiveFils when decoding fails", () => {
    expect(messageOf(Fils, -1)).toBe("must be a whole number of fils from 0 to 99999999999999")
    expect(messageOf(PositiveFils, 0)).toBe("must be greater than 0")
    expect(messageOf(AmountFromWire, "1.005")).toMatch(/^must be a decimal amount with at most 12 digits/)
  })

  it("reads a wire amount given as a number or as its text alike", () => {
    expect(Schema.decodeUnknownSync(AmountFromWire)(12.5)).toBe(1_250)
    expect(Schema.decodeUnknownSync(AmountFromWire)("12.5")).toBe(1_250)
  })

  it("writes zero without a sign and a negative difference with one", () => {
    expect(formatAed(0n)).toBe("AED 0.00")
    expect(formatAed(-1n)).toBe("AED -0.01")
  })
})

describe("proportional allocation", () => {
  it("allocates nothing over no parts, and refuses an amount over none", () => {
    expect(allocateProportionally(fils(0), [])).toEqual([])
    expect(() => allocateProportionally(fils(1), [])).toThrow("cannot allocate an amount over no parts")
  })

  it("gives zeros over parts that weigh nothing, and refuses an amount over them", () => {
    expect(allocateProportionally(fils(0), [fils(0), fils(0)])).toEqual([0, 0])
    expect(() => allocateProportionally(fils(1), [fils(0)])).toThrow(
      "cannot allocate an amount over parts that weigh nothing",
    )
  })

  it("gives the leftover fils to the largest fractions first, wherever they stand", () => {
    // 10 over 1:2:4 is 1.43, 2.86, 5.71: floors 1, 2, 5 and one fils left, to the largest fraction (2.86).
    expect(allocateProportionally(fils(10), [fils(1), fils(2), fils(4)])).toEqual([1, 3, 6])
    // 5 over 3:1 is 3.75, 1.25: the leftover goes to the first, whose fraction is larger.
    expect(allocateProportionally(fils(5), [fils(3), fils(1)])).toEqual([4, 1])
    // 5 over 1:3 is 1.25, 3.75: the leftover goes to the second.
    expect(allocateProportionally(fils(5), [fils(1), fils(3)])).toEqual([1, 4])
    // Equal fractions: the earlier part first, as many as are left.
    expect(allocateProportionally(fils(2), [fils(1), fils(1), fils(1)])).toEqual([1, 1, 0])
    expect(allocateProportionally(fils(1), [fils(1), fils(1), fils(1)])).toEqual([1, 0, 0])
    expect(allocateProportionally(fils(1), [fils(5), fils(5), fils(5), fils(5)])).toEqual([1, 0, 0, 0])
    expect(allocateProportionally(fils(6), [fils(1), fils(1), fils(2)])).toEqual([2, 1, 3])
  })
})

describe("percentage fees", () => {
  it("refuses a rate that is negative or not a whole number of basis points", () => {
    expect(() => percentageFee(fils(100), -1, fils(0))).toThrow("not a fee rate: -1")
    expect(() => percentageFee(fils(100), 1.5, fils(0))).toThrow("not a fee rate: 1.5")
    expect(percentageFee(fils(100), 0, fils(0))).toBe(0)
  })

  it("charges the whole amount when the fee is exactly the amount, and no more when it is above", () => {
    expect(percentageFee(fils(100), 10_000, fils(0))).toBe(100)
    expect(percentageFee(fils(100), 9_900, fils(1))).toBe(100)
    expect(percentageFee(fils(100), 9_900, fils(2))).toBe(100)
  })

  it("charges nothing under the plan of no fees", () => expect(noFees).toEqual({ basisPoints: 0, fixedFils: 0 }))

  it("takes plans from 0 to 10,000 basis points and names the rule past them", () => {
    expect(messageOf(FeePlan, { basisPoints: 10_000, fixedFils: 0 })).toBe("ok")
    expect(messageOf(FeePlan, { basisPoints: 10_001, fixedFils: 0 })).toBe(
      "basisPoints must be from 0 to 10000 basis points",
    )
    expect(messageOf(FeePlan, { basisPoints: -1, fixedFils: 0 })).toBe(
      "basisPoints must be from 0 to 10000 basis points",
    )
  })
})

describe("digests, scenes and codes", () => {
  const digest = "a".repeat(64)
  it("takes exactly 64 lower-case hex characters as a digest, and nothing around them", () => {
    expect(isSha256Hex(digest)).toBe(true)
    for (const other of [
      digest.slice(1),
      `${digest}a`,
      digest.toUpperCase(),
      `x${digest}`,
      `${digest}x`,
      "g".repeat(64),
    ])
      expect(isSha256Hex(other)).toBe(false)
  })

  it("knows the scene codes the spec lists and no other", () => {
    expect(isPaySceneCode("PAYPAGE")).toBe(true)
    expect(isPaySceneCode("PAYANDSIGN")).toBe(true)
    expect(isPaySceneCode("paypage")).toBe(false)
  })

  it("gives a workaround only where the spec gives one", () => {
    expect(codeCatalogue.SUCCESS).toStrictEqual({ code: "0", message: "SUCCESS", meaning: "Success" })
    expect(Object.keys(codeCatalogue.SUCCESS)).toEqual(["code", "message", "meaning"])
    expect(codeCatalogue.SYSTEM_ERROR.workaround).toBe("Retry later")
  })

  it("tags a rejection so the gateway can tell it from a defect", () =>
    expect(new Rejection({ code: "SYSTEM_ERROR", detail: "x" })._tag).toBe("Rejection"))
})

describe("requests", () => {
  it("names streams by their parts, escaping % and / so that no two part lists share a name", () => {
    expect(streamIdOf("walletTransfer", "M1", "W-1")).toBe("walletTransfer/M1/W-1")
    expect(streamIdOf("k", "a/b", "c")).toBe("k/a%2Fb/c")
    expect(streamIdOf("k", "a", "b/c")).toBe("k/a/b%2Fc")
    expect(streamIdOf("k", "100%", "x")).toBe("k/100%25/x")
  })

  it("calls a request the same when every field compares equal, absent on both sides included", () => {
    const fields = { a: Schema.String, b: Schema.optionalKey(Schema.Number) }
    expect(sameRequest(fields, { a: "x" }, { a: "x", extra: 1 })).toBe(true)
    expect(sameRequest(fields, { a: "x", b: 1 }, { a: "x", b: 1 })).toBe(true)
    expect(sameRequest(fields, { a: "x", b: 1 }, { a: "x" })).toBe(false)
    expect(sameRequest(fields, { a: "x" }, { a: "y" })).toBe(false)
  })

  it("checks a request against its schema on the decoded side: 400 naming the field as the request names it", () => {
    const schema = Schema.Struct({ memo: RequiredString(3) })
    expect(checkRequest(schema, { memo: "ok" })).toBeUndefined()
    expect(checkRequest(schema, { memo: "long" })).toMatchObject({
      code: "INVALID_PARAMETER",
      field: "memo",
      detail: "memo must be at most 3 characters",
    })
  })

  it("names the first field that breaks its rule, by its path, as a decider refuses on the first rule", () => {
    const schema = Schema.Struct({
      items: Schema.Array(Schema.Struct({ memo: RequiredString(3) })),
      note: RequiredString(3),
    })
    expect(checkRequest(schema, { items: [{ memo: "ok" }, { memo: "long" }], note: "long" })).toMatchObject({
      field: "items[1].memo",
      detail: "items[1].memo must be at most 3 characters",
    })
  })
})

describe("text fields", () => {
  it("refuses a text of white space only where text is required", () => {
    expect(messageOf(RequiredString(5), " \t")).toBe("must not be empty")
    expect(messageOf(RequiredString(5), "")).toBe("must not be empty")
    expect(messageOf(RequiredString(5), " a ")).toBe("ok")
  })

  it("says String(n) as JSON Schema's maxLength", () => {
    const jsonSchema = Schema.toJsonSchemaDocument(BoundedString(12)).schema as { readonly maxLength?: number }
    expect(jsonSchema.maxLength).toBe(12)
  })

  it("refuses the C1 controls up to U+009F and takes U+00A0", () => {
    expect(isPlainText("a\u009f")).toBe(false)
    expect(isPlainText("a\u007e\u00a0")).toBe(true)
    expect(isPlainText("\u001f")).toBe(false)
    expect(isPlainText("\u0020")).toBe(true)
  })

  it("counts a surrogate pair as one character only when a high surrogate comes first", () => {
    expect(characterCount("\ud83d\ude00")).toBe(1)
    expect(characterCount("\ude00\ud83d")).toBe(2)
    expect(characterCount("\ud83d\ud83d")).toBe(2)
    expect(characterCount("\ud7ff\ude00")).toBe(2)
    expect(characterCount("\udbff\udfff")).toBe(1)
    expect(characterCount("\ud800\udc00")).toBe(1)
    expect(characterCount("\ud83d\ue000")).toBe(2)
    expect(characterCount("\ud83d\udbff")).toBe(2)
    expect(characterCount("\ude00\ude00")).toBe(2)
  })

  it('takes only the texts "true" and "false" as a text boolean', () => {
    expect(messageOf(TextBoolean, "true")).toBe("ok")
    expect(messageOf(TextBoolean, "yes")).toBe('must be the text "true" or "false"')
  })
})

describe("decode problems in a merchant developer's words", () => {
  const shape = Schema.Struct({
    n: Schema.Number,
    s: Schema.String,
    b: Schema.Boolean,
    o: Schema.Struct({ k: Schema.optionalKey(Schema.String) }),
    l: Schema.Array(Schema.String),
  })
  const valid = { n: 1, s: "x", b: true, o: {}, l: [] }

  it.each([
    ["n", "x", "n must be a number"],
    ["s", 1, "s must be a string"],
    ["b", "yes", "b must be true or false"],
    ["o", 1, "o must be an object"],
    ["l", 1, "l must be a list"],
  ])("names the type %s must have", (field, value, message) =>
    expect(messageOf(shape, { ...valid, [field]: value })).toBe(message),
  )

  it("joins several problems into one sentence", () => {
    const result = Schema.decodeUnknownResult(shape)({ ...valid, n: "x", s: 1 }, { errors: "all" })
    expect(Result.isFailure(result) && issueMessage(result.failure.issue)).toBe(
      "n must be a number; s must be a string",
    )
  })

  it("writes list items by index and nested fields with dots", () => {
    const nested = Schema.Struct({ a: Schema.Array(Schema.Struct({ b: Schema.String })) })
    expect(messageOf(nested, { a: [{ b: "x" }, { b: 1 }] })).toBe("a[1].b must be a string")
  })

  it("takes a positive wire Money above zero only, and writes Money back as the wire does", () => {
    expect(messageOf(PositiveMoneyFromWire, { amount: 0, currency: "AED" })).toBe("must be greater than 0")
    expect(messageOf(PositiveMoneyFromWire, { amount: 0.01, currency: "AED" })).toBe("ok")
    expect(toWireMoney(fils(1_050))).toEqual({ amount: 10.5, currency: "AED" })
  })
})

describe("time", () => {
  it("counts a minute, an hour and a day in milliseconds", () => {
    expect(minuteMs).toBe(60_000)
    expect(hourMs).toBe(3_600_000)
    expect(dayMs).toBe(86_400_000)
  })

  it("takes a time in milliseconds since 1970 and names the rule for one before it", () => {
    expect(timestamp(1_767_225_600_000)).toBe(1_767_225_600_000)
    expect(() => timestamp(-1)).toThrow()
    expect(messageOf(Timestamp, -1)).toBe("must be a time in milliseconds since 1970-01-01")
    expect(addMs(timestamp(1_000), 500)).toBe(1_500)
  })

  it("writes notify_time as yyyyMMddHHmmss in UTC", () =>
    expect(formatCompactUtc(timestamp(Date.parse("2026-03-09T07:05:03Z")))).toBe("20260309070503"))
})

describe("the amount rule every order keeps", () => {
  it("holds for one fils and breaks at zero and below, saying the amount", () => {
    expect(amountAboveZero(1)).toEqual([])
    expect(amountAboveZero(0)).toEqual([{ rule: "the amount is above zero", detail: "amount 0 fils" }])
    expect(amountAboveZero(-5)).toEqual([{ rule: "the amount is above zero", detail: "amount -5 fils" }])
  })
})
