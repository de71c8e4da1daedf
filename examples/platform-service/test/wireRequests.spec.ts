/**
 * A platform that takes Mizan's wire requests decodes them with
 * `@mizan/protocol`'s schemas, as installed: the decoded value and its type
 * carry the domain's names.
 */
import { CreateOrderRequest } from "@mizan/protocol"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"

describe("@mizan/protocol as installed", () => {
  it("decodes a create-order request under the domain's names, the currency checked and dropped", () => {
    const request = Schema.decodeUnknownSync(CreateOrderRequest)({
      merchantOrderNo: "order-1",
      subject: "Team plan",
      totalAmount: { amount: 10.5, currency: "AED" },
      currency: "AED",
      paySceneCode: "PAYPAGE",
    })
    const fils: number = request.totalAmountFils
    expect(fils).toBe(1050)
    expect(request).not.toHaveProperty("currency")
    expect(request).not.toHaveProperty("totalAmount")
  })
})
