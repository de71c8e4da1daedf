import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { issueMessage, Timestamp, WholeNumber } from "../src/index.ts"

const refusalOf = (schema: Schema.Codec<unknown, unknown>, value: unknown): string => {
  const decoded = Schema.decodeUnknownResult(Schema.Struct({ field: schema }))({ field: value })
  return Result.isFailure(decoded) ? issueMessage(decoded.failure.issue, ["bizContent"]) : "accepted"
}

describe("WholeNumber", () => {
  it("refuses a fraction, as number or as the source text the wire's parser keeps, saying a whole number is wanted", () => {
    expect(refusalOf(WholeNumber, 1.5)).toBe("bizContent.field must be a whole number")
    expect(refusalOf(WholeNumber, "1.5")).toBe("bizContent.field must be a whole number")
    expect(refusalOf(Timestamp, "1795745555315.5")).toBe("bizContent.field must be a whole number")
  })

  it("takes a whole number", () => {
    expect(refusalOf(WholeNumber, 60)).toBe("accepted")
    expect(refusalOf(Timestamp, 1795745555315)).toBe("accepted")
  })
})
