import { test } from "@fast-check/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  BoundedString,
  characterCount,
  issueMessage,
  PlainText,
  RequiredString,
  Sha256Hex,
  Timestamp,
} from "../src/index.ts"
import { messageOf } from "./support/messageOf.ts"

describe("field rules name the field and the rule", () => {
  it("String(n)", () => {
    expect(messageOf(Schema.Struct({ subject: BoundedString(12) }), { subject: "x".repeat(13) }, ["bizContent"])).toBe(
      "bizContent.subject must be at most 12 characters",
    )
  })
  it("a required field that is missing", () => {
    expect(messageOf(Schema.Struct({ merchantOrderNo: RequiredString(64) }), {}, ["bizContent"])).toBe(
      "bizContent.merchantOrderNo is required",
    )
  })
  it("a nested list item", () => {
    const schema = Schema.Struct({ items: Schema.Array(Schema.Struct({ memo: BoundedString(3) })) })
    expect(messageOf(schema, { items: [{ memo: "ok" }, { memo: "long" }] }, [])).toBe(
      "items[1].memo must be at most 3 characters",
    )
  })
  it("a value outside a set of texts, listed as the hand-written messages list them", () => {
    const schema = Schema.Struct({
      status: Schema.Literals(["PENDING", "SUCCESS", "FAILED"]),
      cardType: Schema.Literals(["DC", "CC"]),
    })
    expect(messageOf(schema, { status: "DONE", cardType: "CC" }, ["bizContent"])).toBe(
      'bizContent.status must be "PENDING", "SUCCESS" or "FAILED"',
    )
    expect(messageOf(schema, { status: "PENDING", cardType: "XX" }, ["bizContent"])).toBe(
      'bizContent.cardType must be "DC" or "CC"',
    )
  })
  it("a wrong type", () => {
    expect(messageOf(Schema.Struct({ requestTime: Timestamp }), { requestTime: "soon" }, [])).toBe(
      "requestTime must be a whole number",
    )
  })
  it("a key the schema does not name, when such keys are refused, without echoing its value", () => {
    const result = Schema.decodeUnknownResult(Schema.Struct({ memo: BoundedString(3) }))(
      { memo: "ok", cardNo: "4111111111111111" },
      { onExcessProperty: "error" },
    )
    expect(Result.isFailure(result) && issueMessage(result.failure.issue, ["bizContent"])).toBe(
      "bizContent.cardNo is not a known field",
    )
  })
  it("a digest", () => {
    expect(messageOf(Sha256Hex, "ABC", [])).toBe("must be a lower-case hex SHA-256 digest (64 characters)")
  })
})

describe("String(n) counts characters, and text holds no control characters", () => {
  const subject = Schema.Struct({ subject: BoundedString(12) })
  const textRule = "subject must be text without control characters (other than tab and newline) or lone surrogates"

  it("takes a 12-emoji subject as 12 characters, although it is 24 UTF-16 units", () => {
    const emoji = "😀".repeat(12)
    expect(emoji).toHaveLength(24)
    expect(messageOf(subject, { subject: emoji }, [])).toBe("ok")
    expect(messageOf(subject, { subject: `${emoji}😀` }, [])).toBe("subject must be at most 12 characters")
  })

  it.each([
    ["a lone high surrogate", "ab\ud83d"],
    ["a lone low surrogate", "\ude00ab"],
    ["NUL", "a\u0000b"],
    ["a carriage return", "a\rb"],
    ["escape", "\u001b[31m"],
    ["DEL", "a\u007f"],
    ["a C1 control", "a\u0085"],
  ])("refuses %s in a text field", (_, text) => {
    expect(messageOf(subject, { subject: text }, [])).toBe(textRule)
    expect(messageOf(Schema.Struct({ subject: RequiredString(12) }), { subject: text }, [])).toBe(textRule)
    expect(messageOf(Schema.Struct({ subject: PlainText }), { subject: text }, [])).toBe(textRule)
  })

  it("takes tab and newline, Arabic and accents", () => {
    expect(messageOf(subject, { subject: "line\n\tقهوة é" }, [])).toBe("ok")
  })

  test.prop([fc.string({ unit: "grapheme-composite" })])(
    "counts what spreading a string into code points counts",
    (text) => {
      expect(characterCount(text)).toBe([...text].length)
    },
  )

  test.prop([fc.string({ unit: "binary" })])("counts a lone surrogate as one character", (text) => {
    expect(characterCount(text)).toBe([...text].length)
  })
})
