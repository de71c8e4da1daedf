import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { BoundedString, issueMessage, RequiredString, Sha256Hex, Timestamp } from "../src/index.ts"

const messageOf = (schema: Schema.Top & Schema.Decoder<unknown>, input: unknown, prefix: ReadonlyArray<string>) => {
  const result = Schema.decodeUnknownResult(schema)(input)
  return Result.isFailure(result) ? issueMessage(result.failure.issue, prefix) : "ok"
}

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
  it("a wrong type", () => {
    expect(messageOf(Schema.Struct({ requestTime: Timestamp }), { requestTime: "soon" }, [])).toBe(
      "requestTime must be a number",
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
