import { describe, expect, it } from "vitest"
import { codeCatalogue, codeOf, namesNoOrder, reject, rejectField } from "../src/index.ts"

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

  it("a refusal about one field carries it, as the domain names it, beside the sentence that starts with it", () => {
    const rejection = rejectField(
      "REFUND_AMOUNT_EXCEEDED",
      "amountFils",
      "AED 90.00 is more than the refundable AED 75.00",
    )
    expect(rejection.field).toBe("amountFils")
    expect(rejection.detail).toBe("amountFils AED 90.00 is more than the refundable AED 75.00")
    expect(namesNoOrder("ORDER_NO_NOT_EXIST", "orderNo").field).toBe("orderNo")
    expect(namesNoOrder("ORDER_NO_NOT_EXIST", "orderNo", "refund").detail).toBe(
      "orderNo names no refund of this merchant",
    )
    expect(reject("ORDER_NOT_PAID", "the order is not paid").field).toBeUndefined()
  })

  it("a refusal whose sentence names its field elsewhere than at its start carries it too", () => {
    const rejection = reject(
      "REFUND_REJECTED",
      "only a proportional refund is allowed: leave out sharingParamList",
      "sharingParamList",
    )
    expect(rejection.field).toBe("sharingParamList")
    expect(rejection.detail).toBe("only a proportional refund is allowed: leave out sharingParamList")
  })
})
