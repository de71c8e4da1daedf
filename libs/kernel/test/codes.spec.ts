import { describe, expect, it } from "vitest"
import { codeCatalogue, codeOf, namesNoOrder, Rejection, reject, rejectField, renameField } from "../src/index.ts"

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

  it("a refusal about one field carries it beside the sentence that starts with it", () => {
    const rejection = rejectField(
      "REFUND_MERCHANT_ORDER_NO_EXIST",
      "bizContent.refundMerchantOrderNo",
      "is already used",
    )
    expect(rejection.field).toBe("bizContent.refundMerchantOrderNo")
    expect(rejection.detail).toBe("bizContent.refundMerchantOrderNo is already used")
    expect(namesNoOrder("ORDER_NO_NOT_EXIST", "bizContent.orderNo").field).toBe("bizContent.orderNo")
    expect(reject("ORDER_NOT_PAID", "the order is not paid").field).toBeUndefined()
  })

  it("renames the field a refusal names, keeping its code and the rest of its sentence", () => {
    const names = { "bizContent.merchantOrderNo": "bizContent.originMerchantOrderNo" }
    const renamed = renameField(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "bizContent.merchantOrderNo"), names)
    expect(renamed.code).toBe("MERCHANT_ORDER_NO_NOT_EXIST")
    expect(renamed.field).toBe("bizContent.originMerchantOrderNo")
    expect(renamed.detail).toBe("bizContent.originMerchantOrderNo names no order of this merchant")
  })

  it("renames the field wherever a refusal built by hand names it in its sentence", () => {
    const names = { "bizContent.merchantOrderNo": "bizContent.originMerchantOrderNo" }
    const byHand = new Rejection({
      code: "INVALID_PARAMETER",
      field: "bizContent.merchantOrderNo",
      detail: "the order bizContent.merchantOrderNo names is closed",
    })
    const renamed = renameField(byHand, names)
    expect(renamed.field).toBe("bizContent.originMerchantOrderNo")
    expect(renamed.detail).toBe("the order bizContent.originMerchantOrderNo names is closed")
  })

  it("leaves a refusal whose field is not renamed, or that carries none, as it is", () => {
    const names = { "bizContent.merchantOrderNo": "bizContent.originMerchantOrderNo" }
    const otherField = namesNoOrder("ORDER_NO_NOT_EXIST", "bizContent.orderNo")
    // Names the renamed field in its words, but not as its field: only the field is read.
    const noField = reject("INVALID_PARAMETER", "bizContent.merchantOrderNo is too long")
    const inherited = rejectField("INVALID_PARAMETER", "toString", "is no field of an object's prototype")
    expect(renameField(otherField, names)).toBe(otherField)
    expect(renameField(noField, names)).toBe(noField)
    expect(renameField(inherited, names)).toBe(inherited)
  })
})
