import { describe, expect, it } from "vitest"
import { withoutUndefined } from "../src/index.ts"

describe("withoutUndefined", () => {
  it("drops the keys whose value is undefined and keeps every other, falsy ones too", () => {
    const note: string | undefined = undefined
    const kept = withoutUndefined({ note, amountFils: 0, memo: "", paid: false, payer: null })
    expect(kept).toStrictEqual({ amountFils: 0, memo: "", paid: false, payer: null })
    expect(Object.hasOwn(kept, "note")).toBe(false)
  })

  it("types a key that may be undefined as optional, so the result fits an exact optional field", () => {
    const reason = Math.random() > 2 ? "late" : undefined
    const request: { readonly orderNo: string; readonly reason?: string } = withoutUndefined({ orderNo: "1", reason })
    expect(request).toStrictEqual({ orderNo: "1" })
  })
})
