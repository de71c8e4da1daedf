/**
 * withDomainNames (src/wire/fields.ts): a request decodes under the domain's
 * names after the wire's own checks, which run once, on the keys the client
 * sent; encoding gives the wire's names back.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { withDomainNames } from "../src/wire/fields.ts"

describe("withDomainNames", () => {
  it("checks each field once, under the client's key, then renames and drops", () => {
    let checks = 0
    const Amount = Schema.Number.check(
      Schema.makeFilter((n: number) => {
        checks++
        return n > 0 || "must be greater than 0"
      }),
    )
    const Request = withDomainNames(
      Schema.Struct({ amount: Amount, currency: Schema.optionalKey(Schema.String), memo: Schema.String }),
      { amount: "amountFils" },
      "currency",
    )
    expect(Schema.decodeUnknownSync(Request)({ amount: 5, currency: "AED", memo: "m" })).toEqual({
      amountFils: 5,
      memo: "m",
    })
    expect(checks).toBe(1)
    expect(() => Schema.decodeUnknownSync(Request)({ amount: 0, memo: "m" })).toThrow(/\["amount"\]/)
    expect(Schema.encodeSync(Request)({ amountFils: 5, memo: "m" })).toEqual({ amount: 5, memo: "m" })
  })

  it("drops only keys a request may leave out: encoding could not give a required one back", () => {
    const Wire = Schema.Struct({ amount: Schema.Number, memo: Schema.optionalKey(Schema.String) })
    // @ts-expect-error amount is required: a decoded request without it would encode to an invalid one.
    const dropsRequired = () => withDomainNames(Wire, {}, "amount")
    expect(dropsRequired).not.toThrow()
    expect(Schema.decodeUnknownSync(withDomainNames(Wire, {}, "memo"))({ amount: 1, memo: "x" })).toEqual({ amount: 1 })
  })
})
