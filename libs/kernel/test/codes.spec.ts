import { describe, expect, it } from "vitest"
import { codeCatalogue, codeOf, reject } from "../src/index.ts"

describe("code catalogue", () => {
  it("holds every code of the spec's tables with its message", () => {
    const codes = Object.values(codeCatalogue).map((e) => `${e.code} ${e.message}`)
    for (const expected of [
      "0 SUCCESS",
      "400 INVALID_PARAMETER",
      "400 REQUESTTIME_TOO_EARLY",
      "402 RATE_LIMIT_REJECT",
      "601 RISK_FAIL",
      "62006 REFUND_AMOUNT_EXCEEDED",
      "62016 MERCHANT_ORDER_NO_EXIST",
      "62084 REFUND_SHARING_MEMBER_MISMATCH",
      "62103 QUERY_API_UNAVAILABLE",
    ]) {
      expect(codes).toContain(expected)
    }
    expect(Object.keys(codeCatalogue)).toHaveLength(38)
  })

  it("keys every entry by its message", () => {
    for (const [name, entry] of Object.entries(codeCatalogue)) expect(entry.message).toBe(name)
  })

  it("a rejection carries its wire code and a readable message", () => {
    const rejection = reject("REFUND_AMOUNT_EXCEEDED", "amount 10.00 exceeds the refundable 5.00")
    expect(rejection.wireCode).toBe(codeOf("REFUND_AMOUNT_EXCEEDED"))
    expect(rejection.wireCode).toBe("62006")
    expect(rejection.message).toBe("REFUND_AMOUNT_EXCEEDED: amount 10.00 exceeds the refundable 5.00")
  })
})
