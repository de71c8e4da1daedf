import { test } from "@fast-check/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  AccessoryContent,
  apiBasePath,
  decodeBizContent,
  decodeResponseBody,
  encodeResponseBody,
  type OperationPath,
  operationPaths,
  operations,
  parseJson,
  WireEncodingError,
} from "../src/index.ts"
import { digest, encrypted, requestSamples, responseSamples } from "./samples.ts"

const requests = requestSamples()

/** The decode message of a bizContent, or "ok". */
const messageOf = (path: OperationPath, bizContent: unknown): string => {
  const result = decodeBizContent(path, bizContent)
  return Result.isFailure(result) ? result.failure.message : "ok"
}

const decoded = <P extends OperationPath>(path: P, bizContent: unknown) =>
  Result.getOrThrow(decodeBizContent(path, bizContent))

const withField = (path: OperationPath, patch: Record<string, unknown>) => ({
  ...(requests[path] as Record<string, unknown>),
  ...patch,
})

const without = (path: OperationPath, field: string) => {
  const { [field]: _dropped, ...rest } = requests[path] as Record<string, unknown>
  return rest
}

describe("the operation catalogue", () => {
  it("holds exactly the 16 paths of the wire conventions' path table, under /sgs/api", () => {
    expect(apiBasePath).toBe("/sgs/api")
    expect([...operationPaths].sort()).toEqual(
      [
        "/acquire2/placeOrder",
        "/acquire2/getOrder",
        "/acquire2/getOrderPayer",
        "/acquire2/refund/placeOrder",
        "/acquire2/refund/getOrder",
        "/acquire2/revokeOrder",
        "/acquire2/cancelOrder",
        "/transfer/placeTransferOrder",
        "/transfer/getTransferOrder",
        "/transfer/getFundoutAbilityList",
        "/transfer/calculateFundout",
        "/transfer/getIbanHolderName",
        "/transfer/placeTransferToBankOrder",
        "/transfer/getTransferToBankOrder",
        "/transfer/placeTransferToBankCard",
        "/transfer/getTransferToBankCard",
      ].sort(),
    )
  })

  it.each(operationPaths)("%s decodes a valid request built from the spec's table", (path) => {
    expect(messageOf(path, requests[path])).toBe("ok")
  })

  it.each(operationPaths)("%s drops an unknown field instead of keeping it", (path) => {
    const withUnknown = { ...(requests[path] as object | undefined), zzUnknownField: "kept?" }
    expect(JSON.stringify(decoded(path, withUnknown)) ?? "").not.toContain("zzUnknownField")
  })

  it.each(operationPaths)("%s decodes a valid response body and encodes it back to the same wire form", (path) => {
    const body = Result.getOrThrow(decodeResponseBody(path, responseSamples[path]))
    expect(encodeResponseBody(path, body)).toEqual(responseSamples[path])
  })

  it.each(operationPaths.filter((path) => path !== "/transfer/getFundoutAbilityList"))(
    "%s refuses an absent bizContent",
    (path) => {
      expect(messageOf(path, undefined)).toBe("bizContent is required")
    },
  )

  it("refuses a bizContent that is not an object", () => {
    expect(messageOf("/acquire2/getOrder", null)).toBe("bizContent must be an object")
    expect(messageOf("/acquire2/getOrder", [])).toBe("bizContent must be an object")
  })

  it("lets the payout ability list go without bizContent, or with an empty one, but not with a non-object", () => {
    expect(messageOf("/transfer/getFundoutAbilityList", undefined)).toBe("ok")
    expect(messageOf("/transfer/getFundoutAbilityList", {})).toBe("ok")
    expect(messageOf("/transfer/getFundoutAbilityList", "all")).toBe("bizContent must be an object, or absent")
    expect(decoded("/transfer/getFundoutAbilityList", { anything: 1 })).toBeUndefined()
  })

  it("names every encrypted field of an operation with its clear length", () => {
    expect(operations["/transfer/placeTransferToBankCard"].sensitive.cardNumber).toMatchObject({
      clearMaxChars: 50,
      digestAccepted: false,
    })
    expect(operations["/transfer/placeTransferOrder"].sensitive.beneficiaryIdentity).toMatchObject({
      clearMaxChars: 20,
      digestAccepted: true,
    })
    expect(Object.keys(operations["/acquire2/placeOrder"].sensitive)).toEqual([
      "paySceneParams.eid",
      "sharingParamList[].sharingIdentity",
    ])
  })
})

describe("create order", () => {
  const path = "/acquire2/placeOrder"

  it("decodes amounts to fils, exactly", () => {
    const order = decoded(path, requests[path])
    expect(order.totalAmountFils).toBe(10050)
    expect(order.sharingParamList?.map((item) => item.sharingAmountFils)).toEqual([1000, 2025])
    expect(order.accessoryContent?.goodsDetail?.priceFils).toBe(5025)
  })

  it("accepts what real clients send: keys in any order, 0.10, \\/, empty accessoryContent objects, currency only inside totalAmount", () => {
    const raw =
      '{"totalAmount":{"currency":"AED","amount":0.10},"subject":"Tea","paySceneCode":"PAYPAGE",' +
      '"notifyUrl":"https:\\/\\/merchant.example\\/notify","merchantOrderNo":"M-1",' +
      '"accessoryContent":{"amountDetail":{},"goodsDetail":{},"terminalDetail":{}},"paySceneParams":{}}'
    const order = decoded(path, Result.getOrThrow(parseJson(raw)))
    expect(order.totalAmountFils).toBe(10)
    expect(order.notifyUrl).toBe("https://merchant.example/notify")
    expect(order).not.toHaveProperty("currency")
    expect(order.accessoryContent).toEqual({ amountDetail: {}, goodsDetail: {}, terminalDetail: {} })
  })

  it("names accessoryContent's amounts in fils as the domain does, and writes them back under the wire's names", () => {
    const order = decoded(path, {
      ...(requests[path] as Record<string, unknown>),
      accessoryContent: {
        amountDetail: { amount: { amount: 1, currency: "AED" }, tipAmount: { amount: 0.5, currency: "AED" } },
        goodsDetail: { goodsId: "G1", price: { amount: 2.25, currency: "AED" }, quantity: 2.5 },
        reserved: "accepted where the spec lists it, kept at bizContent level only",
      },
    })
    expect(order.accessoryContent).toEqual({
      amountDetail: { amountFils: 100, tipAmountFils: 50 },
      goodsDetail: { goodsId: "G1", priceFils: 225, quantity: "2.5" },
    })
    const wire = Schema.encodeSync(AccessoryContent)(order.accessoryContent ?? {})
    expect(wire).toEqual({
      amountDetail: { amount: { amount: 1, currency: "AED" }, tipAmount: { amount: 0.5, currency: "AED" } },
      goodsDetail: { goodsId: "G1", price: { amount: 2.25, currency: "AED" }, quantity: 2.5 },
    })
  })

  it("drops unknown fields at every level instead of keeping them", () => {
    const order = decoded(path, {
      ...withField(path, { extraTopLevel: "x", paySceneParams: { redirectUrl: "https://a", unknownParam: 1 } }),
      accessoryContent: { goodsDetail: { goodsId: "G1", colour: "red" }, somethingElse: {} },
    })
    const text = JSON.stringify(order)
    for (const unknown of ["extraTopLevel", "unknownParam", "colour", "somethingElse"])
      expect(text).not.toContain(unknown)
    expect(order.paySceneParams).toEqual({ redirectUrl: "https://a" })
  })

  test.prop([fc.integer({ min: 1, max: 99_999_999_999_999 })], { numRuns: 100 })(
    "decodes any two-decimal amount written as a JSON number to exactly that many fils",
    (hundredths) => {
      const text = `${Math.trunc(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`
      const raw = `{"merchantOrderNo":"M","subject":"S","paySceneCode":"PAYPAGE","totalAmount":{"amount":${text},"currency":"AED"}}`
      expect(decoded(path, Result.getOrThrow(parseJson(raw))).totalAmountFils).toBe(hundredths)
    },
  )

  it.each([
    ["a subject over 12 characters", { subject: "x".repeat(13) }, "bizContent.subject must be at most 12 characters"],
    ["an empty merchantOrderNo", { merchantOrderNo: " " }, "bizContent.merchantOrderNo must not be empty"],
    [
      "a merchantOrderNo over 64",
      { merchantOrderNo: "m".repeat(65) },
      "bizContent.merchantOrderNo must be at most 64 characters",
    ],
    [
      "three decimals",
      { totalAmount: { amount: "1.005", currency: "AED" } },
      "bizContent.totalAmount.amount must be a decimal amount",
    ],
    [
      "an exponent",
      { totalAmount: { amount: "1e3", currency: "AED" } },
      "bizContent.totalAmount.amount must be a decimal amount",
    ],
    ["a zero amount", { totalAmount: { amount: 0, currency: "AED" } }, "bizContent.totalAmount must be greater than 0"],
    [
      "a currency other than AED",
      { totalAmount: { amount: 1, currency: "USD" } },
      "bizContent.totalAmount.currency must be AED",
    ],
    ["a bizContent currency other than AED", { currency: "EUR" }, "bizContent.currency must be AED"],
    [
      "an expiredTime that is not a number",
      { expiredTime: "tomorrow" },
      "bizContent.expiredTime must be a whole number",
    ],
    ["a payeeMid over 12", { payeeMid: "1234567890123" }, "bizContent.payeeMid must be at most 12 characters"],
    [
      "a notifyUrl over 200",
      { notifyUrl: `https://${"a".repeat(200)}` },
      "bizContent.notifyUrl must be at most 200 characters",
    ],
    [
      "a changePayer that is not a text boolean",
      { paySceneParams: { changePayer: true } },
      'bizContent.paySceneParams.changePayer must be the text "true" or "false"',
    ],
    [
      "a redirectUrl over 512",
      { paySceneParams: { redirectUrl: "u".repeat(513) } },
      "bizContent.paySceneParams.redirectUrl must be at most 512 characters",
    ],
    [
      "an eid in clear",
      { paySceneParams: { eid: "784-1990-1234567-1" } },
      "bizContent.paySceneParams.eid must be encrypted with the service's public key (Base64) or be the lower-case hex SHA-256 of the value",
    ],
    [
      "a settleFlag other than YES or NO",
      { promotionInfoList: [{ appliedRewardId: "R", settleFlag: "MAYBE" }] },
      'bizContent.promotionInfoList[0].settleFlag must be "YES" or "NO"',
    ],
    [
      "a quantity with three decimals",
      { accessoryContent: { goodsDetail: { quantity: "1.234" } } },
      "bizContent.accessoryContent.goodsDetail.quantity must be a decimal with at most 12 digits before the point and 2 after",
    ],
    ["an empty paySceneCode", { paySceneCode: "" }, "bizContent.paySceneCode must not be empty"],
  ])("refuses %s, naming the field", (_what, patch, message) => {
    expect(messageOf(path, withField(path, patch))).toContain(message)
  })

  it("does not read null as an absent optional field", () => {
    expect(messageOf(path, withField(path, { notifyUrl: null }))).toBe("bizContent.notifyUrl must be a string")
  })

  it("lets any paySceneCode through, so the gateway can answer 62012 PAYSCENECODE_ILLEGAL", () => {
    expect(messageOf(path, withField(path, { paySceneCode: "TELEPATHY" }))).toBe("ok")
  })

  it("refuses a missing required field, naming it", () => {
    expect(messageOf(path, without(path, "subject"))).toBe("bizContent.subject is required")
    expect(messageOf(path, without(path, "paySceneCode"))).toBe("bizContent.paySceneCode is required")
  })

  it("reports every broken field at once", () => {
    expect(messageOf(path, withField(path, { subject: "x".repeat(13), payeeMid: "1234567890123" }))).toBe(
      "bizContent.subject must be at most 12 characters; bizContent.payeeMid must be at most 12 characters",
    )
  })

  const sharing = (patch: Record<string, unknown>) => ({
    sharingIdentitySeqId: 1,
    sharingIdentityType: "MEMBER_ID",
    sharingIdentity: digest("m"),
    sharingMemo: "m",
    sharingAmount: { amount: 1, currency: "AED" },
    ...patch,
  })

  it("refuses two sharing items that both withhold the fee", () => {
    const list = [
      sharing({ withholdAndRemitFee: true }),
      sharing({ sharingIdentitySeqId: 2, withholdAndRemitFee: true }),
    ]
    expect(messageOf(path, withField(path, { sharingParamList: list }))).toBe(
      "bizContent.sharingParamList may have at most one item with withholdAndRemitFee true",
    )
  })

  it.each([
    [
      { sharingIdentityType: "EMAIL" },
      'bizContent.sharingParamList[0].sharingIdentityType must be "PHONE_NO" or "MEMBER_ID"',
    ],
    [{ sharingIdentity: "+971 50 000 0001" }, "bizContent.sharingParamList[0].sharingIdentity must be encrypted"],
    [{ sharingIdentitySeqId: 0 }, "bizContent.sharingParamList[0].sharingIdentitySeqId must be a whole number from 1"],
    [{ withholdAndRemitFee: "true" }, "bizContent.sharingParamList[0].withholdAndRemitFee must be true or false"],
  ])("refuses a sharing item %j, naming the item", (patch, message) => {
    expect(messageOf(path, withField(path, { sharingParamList: [sharing(patch)] }))).toContain(message)
  })

  it("never echoes a refused value", () => {
    expect(
      messageOf(path, withField(path, { sharingParamList: [sharing({ sharingIdentity: "+971500000001" })] })),
    ).not.toContain("971500000001")
  })
})

describe.each([
  "/acquire2/getOrder",
  "/acquire2/getOrderPayer",
  "/acquire2/revokeOrder",
  "/acquire2/cancelOrder",
] as const)("%s: exactly one of merchantOrderNo or orderNo", (path) => {
  it("accepts either one", () => {
    expect(decoded(path, { merchantOrderNo: "M1" })).toEqual({ merchantOrderNo: "M1" })
    expect(decoded(path, { orderNo: "13" })).toEqual({ orderNo: "13" })
  })
  it("refuses both", () => {
    expect(messageOf(path, { merchantOrderNo: "M1", orderNo: "13" })).toBe(
      "bizContent.orderNo must be absent when merchantOrderNo is given (send exactly one of the two)",
    )
  })
  it("refuses neither", () => {
    expect(messageOf(path, {})).toBe("bizContent.merchantOrderNo is required when orderNo is absent")
  })
})

describe.each([
  "/transfer/getTransferOrder",
  "/transfer/getTransferToBankOrder",
  "/transfer/getTransferToBankCard",
] as const)("%s: by merchantOrderNo", (path) => {
  it("takes the merchant's number and drops anything else", () => {
    expect(decoded(path, { merchantOrderNo: "X1", orderNo: "ignored" })).toEqual({ merchantOrderNo: "X1" })
  })
  it("refuses a missing or overlong merchantOrderNo, naming it", () => {
    expect(messageOf(path, {})).toBe("bizContent.merchantOrderNo is required")
    expect(messageOf(path, { merchantOrderNo: "x".repeat(65) })).toBe(
      "bizContent.merchantOrderNo must be at most 64 characters",
    )
  })
})

describe("refund", () => {
  const path = "/acquire2/refund/placeOrder"

  it("decodes the amount and the refund's number", () => {
    const refund = decoded(path, requests[path])
    expect(refund.amountFils).toBe(1010)
    expect(refund.refundMerchantOrderNo).toBe("R1700000000001")
    expect(refund.refundMerchantOrderNoSentAs).toBe("refundMerchantOrderNo")
    expect(refund.sharingParamList?.[0]?.sharingAmountFils).toBe(100)
  })

  it("accepts the refund's number under merchantOrderNo, as the spec's sample names it, and keeps that name", () => {
    const refund = decoded(path, { ...without(path, "refundMerchantOrderNo"), merchantOrderNo: "R-sample" })
    expect(refund.refundMerchantOrderNo).toBe("R-sample")
    expect(refund.refundMerchantOrderNoSentAs).toBe("merchantOrderNo")
    expect(refund).not.toHaveProperty("merchantOrderNo")
  })

  it.each(["refundMerchantOrderNo", "merchantOrderNo"])(
    "encodes the refund's number back under %s, as it came",
    (key) => {
      const wire = { ...without(path, "refundMerchantOrderNo"), [key]: "R-again" }
      const request = operations[path].request
      expect(Schema.encodeSync(request)(Schema.decodeUnknownSync(request)(wire))).toEqual(wire)
    },
  )

  it("refuses both names of the refund's number, or neither", () => {
    expect(messageOf(path, withField(path, { merchantOrderNo: "R2" }))).toBe(
      "bizContent.merchantOrderNo must be absent when refundMerchantOrderNo is given (send exactly one of the two)",
    )
    expect(messageOf(path, without(path, "refundMerchantOrderNo"))).toBe(
      "bizContent.refundMerchantOrderNo is required when merchantOrderNo is absent",
    )
  })

  it("takes the payment order by originOrderNo instead", () => {
    const refund = decoded(path, { ...without(path, "originMerchantOrderNo"), originOrderNo: "13" })
    expect(refund.originOrderNo).toBe("13")
  })

  it("refuses both origin numbers, or neither", () => {
    expect(messageOf(path, withField(path, { originOrderNo: "13" }))).toBe(
      "bizContent.originOrderNo must be absent when originMerchantOrderNo is given (send exactly one of the two)",
    )
    expect(messageOf(path, without(path, "originMerchantOrderNo"))).toBe(
      "bizContent.originMerchantOrderNo is required when originOrderNo is absent",
    )
  })

  it.each([
    [{ amount: { amount: -1, currency: "AED" } }, "bizContent.amount.amount must be a decimal amount"],
    [{ reason: "r".repeat(65) }, "bizContent.reason must be at most 64 characters"],
    [{ refundSharingAmount: "yes" }, "bizContent.refundSharingAmount must be true or false"],
    [{ operatorName: "o".repeat(201) }, "bizContent.operatorName must be at most 200 characters"],
  ])("refuses %j, naming the field", (patch, message) => {
    expect(messageOf(path, withField(path, patch))).toContain(message)
  })

  it("refuses a sharing identity type outside its three values", () => {
    const [item] = (requests[path] as { sharingParamList: Array<Record<string, unknown>> }).sharingParamList
    expect(messageOf(path, withField(path, { sharingParamList: [{ ...item, sharingIdentityType: "EMAIL" }] }))).toBe(
      'bizContent.sharingParamList[0].sharingIdentityType must be "PHONE_NO", "MEMBER_ID" or "ALTWALLET_ID"',
    )
  })

  it("gets a refund by exactly one of refundMerchantOrderNo or orderNo", () => {
    expect(messageOf("/acquire2/refund/getOrder", { orderNo: "14" })).toBe("ok")
    expect(messageOf("/acquire2/refund/getOrder", { refundMerchantOrderNo: "R", orderNo: "14" })).toBe(
      "bizContent.orderNo must be absent when refundMerchantOrderNo is given (send exactly one of the two)",
    )
  })
})

describe("wallet transfer", () => {
  const path = "/transfer/placeTransferOrder"

  it.each([
    [{ beneficiaryIdentityType: "IBAN" }, 'bizContent.beneficiaryIdentityType must be "PHONE_NO" or "MEMBER_ID"'],
    [{ beneficiaryIdentity: "+971500000001" }, "bizContent.beneficiaryIdentity must be encrypted"],
    [{ memo: "m".repeat(201) }, "bizContent.memo must be at most 200 characters"],
    [{ amount: { amount: 0, currency: "AED" } }, "bizContent.amount must be greater than 0"],
  ])("refuses %j, naming the field", (patch, message) => {
    expect(messageOf(path, withField(path, patch))).toContain(message)
  })

  it("takes the beneficiary as a SHA-256 digest or encrypted", () => {
    expect(messageOf(path, withField(path, { beneficiaryIdentity: digest("+971500000001") }))).toBe("ok")
    expect(messageOf(path, withField(path, { beneficiaryFullName: encrypted("Amal Saeed") }))).toBe("ok")
  })

  it("refuses a missing memo and gets a transfer by merchantOrderNo", () => {
    expect(messageOf(path, without(path, "memo"))).toBe("bizContent.memo is required")
    expect(messageOf("/transfer/getTransferOrder", {})).toBe("bizContent.merchantOrderNo is required")
  })
})

describe("payout helpers and bank transfer", () => {
  it("rate calculator: names a networkCode over 20 and a missing orderAmount", () => {
    const path = "/transfer/calculateFundout"
    expect(messageOf(path, withField(path, { networkCode: "n".repeat(21) }))).toBe(
      "bizContent.networkCode must be at most 20 characters",
    )
    expect(messageOf(path, without(path, "orderAmount"))).toBe("bizContent.orderAmount is required")
  })

  it("IBAN holder name: only holderName is required, as the spec's sample sends", () => {
    const path = "/transfer/getIbanHolderName"
    expect(messageOf(path, { holderName: encrypted("Amal") })).toBe("ok")
    expect(messageOf(path, { iban: encrypted("AE07") })).toBe("bizContent.holderName is required")
  })

  it("IBAN holder name: answers the match in the documentation's form only, a level's number and TRUE or FALSE", () => {
    const answerOf = (nameMatchingLevel: string, nameMatchingResult: string) =>
      Result.isSuccess(
        decodeResponseBody("/transfer/getIbanHolderName", {
          ibanHolderName: { holderNameMask: "A*** S****", nameMatchingLevel, nameMatchingResult },
        }),
      )
    expect(answerOf("1", "TRUE")).toBe(true)
    expect(answerOf("4", "FALSE")).toBe(true)
    expect(answerOf("EXACT", "TRUE")).toBe(false)
    expect(answerOf("1", "MATCH")).toBe(false)
    expect(answerOf("1", "true")).toBe(false)
  })

  it("carries head.success on create order's answers only, the one operation whose documented sample shows it", () =>
    expect(operationPaths.filter((path) => operations[path].headSuccess)).toEqual(["/acquire2/placeOrder"]))

  it("IBAN holder name: refuses a holder name in clear", () => {
    expect(messageOf("/transfer/getIbanHolderName", { holderName: "Amal Saeed" })).toBe(
      "bizContent.holderName must be encrypted with the service's public key (Base64)",
    )
  })

  it("bank transfer: merchantOrderNo, holderName, iban, amount and memo are required", () => {
    const path = "/transfer/placeTransferToBankOrder"
    for (const field of ["merchantOrderNo", "holderName", "iban", "amount", "memo"])
      expect(messageOf(path, without(path, field))).toBe(`bizContent.${field} is required`)
    expect(messageOf(path, withField(path, { swiftCode: "BBMEAEADXXXX" }))).toBe(
      "bizContent.swiftCode must be at most 11 characters",
    )
  })

  it("bank transfer: a hex digest is refused where the service needs the clear IBAN", () => {
    const path = "/transfer/placeTransferToBankOrder"
    expect(messageOf(path, withField(path, { iban: digest("AE07") }))).toBe(
      "bizContent.iban must be encrypted with the service's public key (Base64)",
    )
    expect(operations[path].sensitive.iban?.digestAccepted).toBe(false)
  })
})

describe("bank card transfer", () => {
  const path = "/transfer/placeTransferToBankCard"

  it("requires first and last name for an individual", () => {
    expect(messageOf(path, without(path, "lastName"))).toBe(
      "bizContent.lastName is required when accountHolderType is INDIVIDUAL",
    )
  })

  it("requires a company name for a corporate holder", () => {
    const corporate = { ...without(path, "firstName"), accountHolderType: "CORPORATE" }
    expect(messageOf(path, corporate)).toBe("bizContent.companyName is required when accountHolderType is CORPORATE")
    expect(messageOf(path, { ...corporate, companyName: encrypted("ACME Trading LLC") })).toBe("ok")
  })

  it.each([
    [{ accountHolderType: "PERSON" }, 'bizContent.accountHolderType must be "INDIVIDUAL" or "CORPORATE"'],
    [
      { cardNumber: "4111111111111111!" },
      "bizContent.cardNumber must be encrypted with the service's public key (Base64)",
    ],
    [{ memo: "m".repeat(51) }, "bizContent.memo must be at most 50 characters"],
    [
      { expiryMonth: "x".repeat(700) },
      "bizContent.expiryMonth is longer than any encrypted value of at most 2 characters",
    ],
  ])("refuses %j, naming the field", (patch, message) => {
    expect(messageOf(path, withField(path, patch))).toBe(message)
  })

  it("gets a card transfer by merchantOrderNo", () => {
    expect(messageOf("/transfer/getTransferToBankCard", { merchantOrderNo: "C1" })).toBe("ok")
  })
})

describe("response bodies", () => {
  it("encode amounts in fils to JSON numbers", () => {
    const body = Result.getOrThrow(
      decodeResponseBody("/acquire2/refund/placeOrder", responseSamples["/acquire2/refund/placeOrder"]),
    )
    expect(body.refundSummary.remainRefundAmount).toBe(9040)
    expect(encodeResponseBody("/acquire2/refund/placeOrder", body).refundSummary.remainRefundAmount).toEqual({
      amount: 90.4,
      currency: "AED",
    })
  })

  it("carry the bank card order under transferToBankCard, as the spec's response sample does", () => {
    const body = Result.getOrThrow(
      decodeResponseBody("/transfer/getTransferToBankCard", responseSamples["/transfer/getTransferToBankCard"]),
    )
    expect(body.transferToBankCard.status).toBe("BANK_FAIL")
  })

  it("keep a rate and a foreign amount exact", () => {
    const body = Result.getOrThrow(
      decodeResponseBody("/transfer/calculateFundout", responseSamples["/transfer/calculateFundout"]),
    )
    expect(body.fundoutInfo.rate).toBe("0.272294")
    expect(body.fundoutInfo.fundoutAmount).toEqual({ amountMinor: 27229, currency: "USD" })
  })

  it("refuse, on the way out, a card's last 4 that is not 4 digits, naming the field and not the value", () => {
    const body = Result.getOrThrow(decodeResponseBody("/acquire2/getOrder", responseSamples["/acquire2/getOrder"]))
    const leaky = {
      acquireOrder: {
        ...body.acquireOrder,
        paymentInfo: {
          ...body.acquireOrder.paymentInfo!,
          cardInfo: { ...body.acquireOrder.paymentInfo!.cardInfo!, last4: "4111111111111111" },
        },
      },
    }
    expect(() => encodeResponseBody("/acquire2/getOrder", leaky)).toThrow(WireEncodingError)
    expect(() => encodeResponseBody("/acquire2/getOrder", leaky)).toThrow(
      /body\.acquireOrder\.paymentInfo\.cardInfo\.last4/,
    )
    try {
      encodeResponseBody("/acquire2/getOrder", leaky)
    } catch (error) {
      expect(String(error)).not.toContain("4111111111111111")
    }
  })

  it("refuse, on the way in, a body that breaks the schema, naming the field", () => {
    const result = decodeResponseBody("/acquire2/getOrder", {
      acquireOrder: { ...(responseSamples["/acquire2/getOrder"] as object), status: "PAID" },
    })
    expect(Result.isFailure(result) && result.failure.message).toContain("body.acquireOrder")
  })

  it("decodes a digest field only as a lower-case SHA-256", () => {
    const schema = operations["/transfer/getTransferOrder"].response
    const sample = responseSamples["/transfer/getTransferOrder"] as { transferOrder: object }
    const bad = { transferOrder: { ...sample.transferOrder, beneficiaryIdentity: "+971500000001" } }
    expect(Result.isFailure(Schema.decodeUnknownResult(schema)(bad))).toBe(true)
  })
})
