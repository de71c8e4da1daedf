import { test } from "@fast-check/vitest"
import { deciderSpec } from "@mizan/eventsourcing/testing"
import { hourMs, issueMessage, paySceneCodes, timestamp } from "@mizan/kernel"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  aggregate as acquiringOrder,
  CreateOrder,
  decide,
  initialState,
  type OrderRequest,
} from "../src/acquiringOrder.ts"
import {
  at,
  createOrder,
  eventsDecidedBy,
  merchantId,
  orderRequest,
  payOrder,
  sharingItem,
  t0,
} from "../src/testing/index.ts"

const spec = deciderSpec(acquiringOrder)

describe("create order", () => {
  it("creates a CREATED order that expires 2 hours after requestTime, paid to the calling merchant by default", () =>
    spec
      .given([])
      .when(createOrder())
      .thenState((state) => {
        expect(state).toMatchObject({
          status: "CREATED",
          merchantId,
          orderNo: "SVC-ORDER-1",
          requestTime: t0,
          expiredTime: t0 + 2 * hourMs,
          payeeMid: merchantId,
          revoked: false,
          paySceneParams: { changePayer: "true", oneTimePayment: "false" },
        })
      }))

  it("keeps the PAYPAGE parameters it was given and fills only the missing defaults", () =>
    spec
      .given([])
      .when(
        createOrder({
          paySceneParams: { redirectUrl: "https://shop.example/done", oneTimePayment: "true", customerId: "C-9" },
          payeeMid: "M0002",
        }),
      )
      .thenState((state) => {
        expect(state).toMatchObject({
          payeeMid: "M0002",
          paySceneParams: {
            redirectUrl: "https://shop.example/done",
            customerId: "C-9",
            changePayer: "true",
            oneTimePayment: "true",
          },
        })
      }))

  it("keeps accessoryContent and promotionInfoList in the shape they came, empty objects included", () => {
    const accessoryContent = {
      amountDetail: {},
      goodsDetail: { goodsName: "Beans", quantity: "2.5" },
      terminalDetail: {},
    }
    const promotionInfoList = [{ appliedRewardId: "COUPON-1", settleFlag: "YES" as const }]
    spec
      .given([])
      .when(createOrder({ accessoryContent, promotionInfoList }))
      .thenState((state) => {
        expect(state.status !== "ABSENT" && state.request.accessoryContent).toStrictEqual(accessoryContent)
        expect(state.status !== "ABSENT" && state.request.promotionInfoList).toStrictEqual(promotionInfoList)
      })
  })

  it("accepts an expiredTime exactly 48 hours after requestTime", () =>
    spec
      .given([])
      .when(createOrder({ expiredTime: at(48 * hourMs) }))
      .thenState((state) => expect(state).toMatchObject({ expiredTime: t0 + 48 * hourMs })))

  it("refuses an expiredTime more than 48 hours after requestTime with 62009", () =>
    spec
      .given([])
      .when(createOrder({ expiredTime: at(48 * hourMs + 1) }))
      .thenRejects({ code: "EXPIREDTIME_TOO_LATER" }))

  it.each([
    ["before", -1],
    ["equal to", 0],
  ])("refuses an expiredTime %s requestTime with 62008", (_, offsetMs) =>
    spec
      .given([])
      .when(createOrder({ expiredTime: at(offsetMs) }))
      .thenRejects({ code: "EXPIREDTIME_LESS_THAN_REQUESTTIME" }),
  )

  it.each(paySceneCodes)("accepts the scene %s", (paySceneCode) =>
    spec
      .given([])
      .when(createOrder({ paySceneCode }))
      .thenState((state) => expect(state.status).toBe("CREATED")),
  )

  it("refuses a scene code the spec does not list with 62012", () =>
    spec
      .given([])
      .when(createOrder({ paySceneCode: "TELEPATHY" }))
      .thenRejects({ code: "PAYSCENECODE_ILLEGAL" }))

  it("requires deviceId with secondaryMerchantId (400)", () => {
    spec
      .given([])
      .when(createOrder({ secondaryMerchantId: "SUB-1" }))
      .thenRejects({ code: "INVALID_PARAMETER", detail: "deviceId is required with secondaryMerchantId" })
    spec
      .given([])
      .when(createOrder({ secondaryMerchantId: "SUB-1", deviceId: "POS-7" }))
      .thenState((state) => expect(state.status).toBe("CREATED"))
  })
})

describe("create order: split payments", () => {
  it("accepts sharing items numbered 1..n in any order whose amounts sum to at most totalAmount", () =>
    spec
      .given([])
      .when(createOrder({ sharingParamList: [sharingItem(2, 3_000), sharingItem(1, 7_000, true)] }))
      .thenState((state) => expect(state.status).toBe("CREATED")))

  it.each([
    ["not starting at 1", [sharingItem(2, 100)]],
    ["with a gap", [sharingItem(1, 100), sharingItem(3, 100)]],
    ["with a repeated number", [sharingItem(1, 100), sharingItem(1, 100)]],
  ])("refuses sequence ids %s (400)", (_, sharingParamList) =>
    spec
      .given([])
      .when(createOrder({ sharingParamList }))
      .thenRejects({ code: "INVALID_PARAMETER", detail: expect.stringContaining("sharingIdentitySeqId") }),
  )

  it("refuses sharing amounts that sum above totalAmount (400)", () =>
    spec
      .given([])
      .when(createOrder({ sharingParamList: [sharingItem(1, 6_000), sharingItem(2, 4_001)] }))
      .thenRejects({ code: "INVALID_PARAMETER", detail: expect.stringContaining("more than totalAmount") }))

  it("refuses more than one item with withholdAndRemitFee true (400)", () =>
    spec
      .given([])
      .when(createOrder({ sharingParamList: [sharingItem(1, 100, true), sharingItem(2, 100, true)] }))
      .thenRejects({ code: "INVALID_PARAMETER", detail: expect.stringContaining("withholdAndRemitFee") }))
})

describe("create order: split payment rules over random lists", () => {
  const item = fc.record({
    seqId: fc.integer({ min: 1, max: 5 }),
    amountFils: fc.integer({ min: 1, max: 6_000 }),
    withhold: fc.boolean(),
  })
  test.prop([fc.array(item, { maxLength: 5 })], { numRuns: 200 })(
    "accepts a list exactly when its ids are 1..n, its amounts sum to at most totalAmount and at most one item withholds",
    (items) => {
      const ids = items.map((i) => i.seqId).sort((a, b) => a - b)
      const valid =
        ids.every((id, i) => id === i + 1) &&
        items.reduce((sum, i) => sum + i.amountFils, 0) <= 10_000 &&
        items.filter((i) => i.withhold).length <= 1
      const decided = decide(
        createOrder({
          sharingParamList: items.map((i) => sharingItem(i.seqId, i.amountFils, i.withhold || undefined)),
        }),
        initialState,
      )
      expect(Result.isSuccess(decided)).toBe(valid)
      if (Result.isFailure(decided)) expect(decided.failure.code).toBe("INVALID_PARAMETER")
    },
  )
})

describe("create order: idempotency", () => {
  const created = eventsDecidedBy(createOrder())

  it("decides nothing for the same request sent again later, and keeps the first requestTime and orderNo", () => {
    const again = { ...createOrder({}, at(5 * 60_000)), orderNo: "SVC-ORDER-2" }
    spec.given(created).when(again).thenNothing()
    spec
      .given(created)
      .when(again)
      .thenState((state) => expect(state).toMatchObject({ requestTime: t0, orderNo: "SVC-ORDER-1" }))
  })

  it("answers the same request with the current order whatever its status", () =>
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), { _tag: "SettleOrder", merchantId, now: at(hourMs) }))
      .when(createOrder())
      .thenNothing())

  const otherRequest = createOrder({ subject: "Tea" })
  it("refuses other parameters under the number of a CREATED order with 62016", () =>
    spec.given(created).when(otherRequest).thenRejects({ code: "MERCHANT_ORDER_NO_EXIST" }))

  it("refuses other parameters under the number of a paid order with 62001", () =>
    spec.given(eventsDecidedBy(createOrder(), payOrder())).when(otherRequest).thenRejects({ code: "ORDER_PAID" }))

  it("refuses other parameters under the number of a settled order with 62003", () =>
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), { _tag: "SettleOrder", merchantId, now: at(hourMs) }))
      .when(otherRequest)
      .thenRejects({ code: "ORDER_SETTLED" }))

  it("refuses other parameters under the number of a failed order with 62002", () =>
    spec
      .given(eventsDecidedBy(createOrder(), { _tag: "CancelOrder", merchantId, now: at(1) }))
      .when(otherRequest)
      .thenRejects({ code: "ORDER_FAILURE" }))

  it("treats an absent optional field and a given one as different parameters", () =>
    spec
      .given(created)
      .when(createOrder({ expiredTime: timestamp(t0 + 2 * hourMs) }))
      .thenRejects({ code: "MERCHANT_ORDER_NO_EXIST" }))
})

describe("create order: field rules of the command schema", () => {
  const decode = Schema.decodeUnknownResult(CreateOrder)
  const problemWith = (request: Record<string, unknown>): string => {
    const decoded = decode({ ...createOrder(), request: { ...orderRequest(), ...request } })
    return Result.isFailure(decoded) ? issueMessage(decoded.failure.issue) : "accepted"
  }
  const sharing = (overrides: Record<string, unknown>) => ({
    sharingParamList: [{ ...sharingItem(1, 100), ...overrides }],
  })

  it("accepts a well-formed request", () => expect(problemWith({})).toBe("accepted"))

  it.each<[string, Partial<Record<keyof OrderRequest, unknown>>, string]>([
    ["a subject over 12 characters", { subject: "Thirteen char" }, "request.subject must be at most 12 characters"],
    ["an empty subject", { subject: " " }, "request.subject must not be empty"],
    ["a merchantOrderNo over 64 characters", { merchantOrderNo: "x".repeat(65) }, "request.merchantOrderNo"],
    ["a totalAmount of zero", { totalAmountFils: 0 }, "request.totalAmountFils must be greater than 0"],
    ["a payeeMid over 12 characters", { payeeMid: "M".repeat(13) }, "request.payeeMid"],
    ["a notifyUrl over 200 characters", { notifyUrl: "h".repeat(201) }, "request.notifyUrl"],
    ["a redirectUrl over 512 characters", { paySceneParams: { redirectUrl: "h".repeat(513) } }, "redirectUrl"],
    ["a changePayer that is not a text boolean", { paySceneParams: { changePayer: true } }, "changePayer"],
    ["an eid that is not a digest", { paySceneParams: { eid: "784-1990-1234567-1" } }, "eid"],
    [
      "a settleFlag other than YES or NO",
      { promotionInfoList: [{ appliedRewardId: "C", settleFlag: "Y" }] },
      "settleFlag",
    ],
    ["a reserved note over 200 characters", { reserved: "r".repeat(201) }, "request.reserved"],
    ["a quantity with 3 decimals", { accessoryContent: { goodsDetail: { quantity: "1.005" } } }, "quantity"],
    [
      "a sharing identity type the spec does not list",
      sharing({ sharingIdentityType: "EMAIL" }),
      "sharingIdentityType",
    ],
    ["a sharing identity that is not a digest", sharing({ sharingIdentity: "+971501234567" }), "sharingIdentity"],
    ["a sharing amount of zero", sharing({ sharingAmountFils: 0 }), "sharingAmountFils must be greater than 0"],
    ["a sharing sequence id of 0", sharing({ sharingIdentitySeqId: 0 }), "sharingIdentitySeqId must be 1 or more"],
  ])("refuses %s", (_, request, message) => expect(problemWith(request)).toContain(message))

  it("never echoes a refused identity in its message", () =>
    expect(problemWith(sharing({ sharingIdentity: "+971501234567" }))).not.toContain("971501234567"))
})
