import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Timestamp, WholeNumber } from "../src/index.ts"
import { messageOf } from "./support/messageOf.ts"

/** What the rule says of `value` sent as a field of bizContent. */
const refusalOf = (schema: Schema.Codec<unknown, unknown>, value: unknown): string =>
  messageOf(Schema.Struct({ field: schema }), { field: value }, ["bizContent"])

describe("WholeNumber", () => {
  it("refuses a fraction, as number or as the source text the wire's parser keeps, saying a whole number is wanted", () => {
    expect(refusalOf(WholeNumber, 1.5)).toBe("bizContent.field must be a whole number")
    expect(refusalOf(WholeNumber, "1.5")).toBe("bizContent.field must be a whole number")
    expect(refusalOf(Timestamp, "1795745555315.5")).toBe("bizContent.field must be a whole number")
  })

  it("takes a whole number", () => {
    expect(refusalOf(WholeNumber, 60)).toBe("ok")
    expect(refusalOf(Timestamp, 1795745555315)).toBe("ok")
  })
})
