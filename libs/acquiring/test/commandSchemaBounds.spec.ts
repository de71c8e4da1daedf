/**
 * The field rules of the command and event schemas, each on both sides: a
 * value at the rule's bound decodes, one past it is refused with a message
 * that names the field. The bounds are the spec's (docs/api.md), written here
 * as numbers, never read from the schemas.
 */
import { issueMessage } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  CancelOrder,
  Command,
  ConfirmRefund,
  CreateOrder,
  ExpireOrder,
  eventCodec,
  FailPaymentAttempt,
  PayOrder,
  ReleaseRefund,
  ReserveRefund,
  RevokeOrder,
  SettleOrder,
} from "../src/acquiringOrder.ts"
import {
  at,
  createOrder,
  digest,
  eventsDecidedBy,
  merchantId,
  orderRequest,
  payOrder,
  reserveRefund,
  sharingItem,
} from "../src/testing/index.ts"

/** "accepted", or the refusal's message (field path first). */
const verdict = (schema: Schema.Top, input: unknown): string => {
  const decoded = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)(input)
  return Result.isFailure(decoded) ? issueMessage(decoded.failure.issue) : "accepted"
}

const card = { brand: "VISA", last4: "4242", cardType: "CC", expMonth: "12", expYear: "29" }
const withCard = (cardInfo: Record<string, unknown>) => ({ ...payOrder(), cardInfo: { ...card, ...cardInfo } })
const withPayer = (payer: Record<string, unknown>) => {
  const command = payOrder()
  return { ...command, payer: { ...command.payer, ...payer } }
}
const withGoods = (goodsDetail: Record<string, unknown>) => ({
  ...createOrder(),
  request: { ...orderRequest(), accessoryContent: { goodsDetail } },
})
const withSharing = (item: Record<string, unknown>) => ({
  ...createOrder(),
  request: { ...orderRequest(), sharingParamList: [{ ...sharingItem(1, 100), ...item }] },
})
const withRefundMember = (member: Record<string, unknown>) => {
  const command = reserveRefund({ refundSharingAmount: true })
  const listed = { ...sharingItem(1, 100), sharingMemo: "back", ...member }
  return { ...command, request: { ...command.request, sharingParamList: [listed] } }
}
const withPromotion = (promotion: Record<string, unknown>) => ({
  ...createOrder(),
  request: { ...orderRequest(), promotionInfoList: [{ appliedRewardId: "C1", settleFlag: "YES", ...promotion }] },
})

describe("PayOrder's card: only what the spec returns, in its forms", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["a 2-letter network", { brand: "JC" }, "accepted"],
    ["a 20-letter network", { brand: "A".repeat(20) }, "accepted"],
    ["a 1-letter network", { brand: "V" }, "cardInfo.brand must be an upper-case card network code"],
    ["a 21-letter network", { brand: "A".repeat(21) }, "cardInfo.brand must be an upper-case card network code"],
    ["a lower-case network", { brand: "visa" }, "cardInfo.brand must be an upper-case card network code"],
    ["a network with a digit", { brand: "VISA1" }, "cardInfo.brand must be an upper-case card network code"],
    ["4 last digits", { last4: "0000" }, "accepted"],
    ["3 last digits", { last4: "424" }, "cardInfo.last4 must be the last 4 digits of the card"],
    ["5 last digits", { last4: "42424" }, "cardInfo.last4 must be the last 4 digits of the card"],
    ["a letter among the last digits", { last4: "42a2" }, "cardInfo.last4 must be the last 4 digits of the card"],
    ["a debit card", { cardType: "DC" }, "accepted"],
    ["a credit card", { cardType: "CC" }, "accepted"],
    ["a card type the spec does not list", { cardType: "PP" }, 'cardInfo.cardType must be "DC" or "CC"'],
    ["month 01", { expMonth: "01" }, "accepted"],
    ["month 09", { expMonth: "09" }, "accepted"],
    ["month 10", { expMonth: "10" }, "accepted"],
    ["month 00", { expMonth: "00" }, "cardInfo.expMonth must be a two-digit month"],
    ["month 13", { expMonth: "13" }, "cardInfo.expMonth must be a two-digit month"],
    ["a one-digit month", { expMonth: "1" }, "cardInfo.expMonth must be a two-digit month"],
    ["a month with a third digit", { expMonth: "012" }, "cardInfo.expMonth must be a two-digit month"],
    ["year 00", { expYear: "00" }, "accepted"],
    ["a four-digit year", { expYear: "2029" }, "cardInfo.expYear must be the last two digits of the year"],
    ["a one-digit year", { expYear: "9" }, "cardInfo.expYear must be the last two digits of the year"],
    ["a year with a letter", { expYear: "2a" }, "cardInfo.expYear must be the last two digits of the year"],
  ])("%s: %s", (_, cardInfo, expected) => expect(verdict(PayOrder, withCard(cardInfo))).toBe(expected))
})

describe("PayOrder's payer: the mobile number arrives masked", () => {
  it.each<[string, string, string]>([
    ["digits hidden in the middle", "97150***4567", "accepted"],
    ["an international number with a space", "+971 50***4567", "accepted"],
    ["every digit hidden", "*", "accepted"],
    ["hidden digits at the end", "97150****", "accepted"],
    ["no digit hidden", "971501234567", "payer.mobileNumberMask must be a masked mobile number (digits hidden with *)"],
    [
      "a letter before the mask",
      "97a50***4567",
      "payer.mobileNumberMask must be a masked mobile number (digits hidden with *)",
    ],
    [
      "a letter after the mask",
      "97150***45x7",
      "payer.mobileNumberMask must be a masked mobile number (digits hidden with *)",
    ],
  ])("%s (%j): %s", (_, mobileNumberMask, expected) =>
    expect(verdict(PayOrder, withPayer({ mobileNumberMask }))).toBe(expected),
  )
})

describe("create order's goodsDetail.quantity: at most 12 digits before the point and 2 after", () => {
  const refused =
    "request.accessoryContent.goodsDetail.quantity must be a decimal with at most 12 digits before the point and 2 after"
  it.each<[string, string]>([
    ["0", "accepted"],
    ["7", "accepted"],
    ["999999999999", "accepted"],
    ["999999999999.99", "accepted"],
    ["0.5", "accepted"],
    ["10.25", "accepted"],
    ["1000000000000", refused],
    ["1.005", refused],
    ["1.", refused],
    [".5", refused],
    ["01", refused],
    ["-1", refused],
    ["1,5", refused],
    ["1.5 ", refused],
  ])("%j: %s", (quantity, expected) => expect(verdict(CreateOrder, withGoods({ quantity }))).toBe(expected))
})

describe("sharing items and promotions: the values the spec lists", () => {
  it.each<[string, unknown, string]>([
    ["create order, a PHONE_NO member", withSharing({ sharingIdentityType: "PHONE_NO" }), "accepted"],
    ["create order, a MEMBER_ID member", withSharing({ sharingIdentityType: "MEMBER_ID" }), "accepted"],
    [
      "create order, an ALTWALLET_ID member",
      withSharing({ sharingIdentityType: "ALTWALLET_ID" }),
      "request.sharingParamList[0].sharingIdentityType",
    ],
    ["create order, sequence id 1", withSharing({ sharingIdentitySeqId: 1 }), "accepted"],
    [
      "create order, sequence id 0",
      withSharing({ sharingIdentitySeqId: 0 }),
      "request.sharingParamList[0].sharingIdentitySeqId must be 1 or more",
    ],
    [
      "create order, sequence id 1.5",
      withSharing({ sharingIdentitySeqId: 1.5 }),
      "request.sharingParamList[0].sharingIdentitySeqId",
    ],
    ["refund, a PHONE_NO member", withRefundMember({ sharingIdentityType: "PHONE_NO" }), "accepted"],
    ["refund, a MEMBER_ID member", withRefundMember({ sharingIdentityType: "MEMBER_ID" }), "accepted"],
    ["refund, an ALTWALLET_ID member", withRefundMember({ sharingIdentityType: "ALTWALLET_ID" }), "accepted"],
    [
      "refund, an EMAIL member",
      withRefundMember({ sharingIdentityType: "EMAIL" }),
      "request.sharingParamList[0].sharingIdentityType",
    ],
    ["refund, a memo of 128 characters", withRefundMember({ sharingMemo: "m".repeat(128) }), "accepted"],
    [
      "refund, a memo of 129 characters",
      withRefundMember({ sharingMemo: "m".repeat(129) }),
      "request.sharingParamList[0].sharingMemo must be at most 128 characters",
    ],
    [
      "refund, sequence id 0",
      withRefundMember({ sharingIdentitySeqId: 0 }),
      "request.sharingParamList[0].sharingIdentitySeqId must be 1 or more",
    ],
    ["a promotion settled YES", withPromotion({ settleFlag: "YES" }), "accepted"],
    ["a promotion settled NO", withPromotion({ settleFlag: "NO" }), "accepted"],
    ["a promotion settled MAYBE", withPromotion({ settleFlag: "MAYBE" }), "request.promotionInfoList[0].settleFlag"],
  ])("%s: %s", (_, input, expected) => {
    const schema = (input as { _tag: string })._tag === "CreateOrder" ? CreateOrder : ReserveRefund
    expect(verdict(schema, input)).toContain(expected)
  })
})

describe("every command decodes under its own tag", () => {
  const addressed = { merchantId, now: at(1) }
  it.each<[string, Schema.Top, unknown]>([
    ["CreateOrder", CreateOrder, createOrder()],
    ["PayOrder", PayOrder, withCard({})],
    [
      "FailPaymentAttempt",
      FailPaymentAttempt,
      {
        _tag: "FailPaymentAttempt",
        ...addressed,
        attemptId: "a-1",
        payerMid: "P1",
        failCode: "DECLINED",
        failDes: "declined",
      },
    ],
    ["SettleOrder", SettleOrder, { _tag: "SettleOrder", ...addressed }],
    ["ExpireOrder", ExpireOrder, { _tag: "ExpireOrder", ...addressed }],
    ["CancelOrder", CancelOrder, { _tag: "CancelOrder", ...addressed }],
    ["RevokeOrder", RevokeOrder, { _tag: "RevokeOrder", ...addressed, refundOrderNo: "SVC-R1" }],
    ["ReserveRefund", ReserveRefund, withRefundMember({ sharingIdentity: digest(1) })],
    ["ConfirmRefund", ConfirmRefund, { _tag: "ConfirmRefund", ...addressed, refundOrderNo: "SVC-R1" }],
    [
      "ReleaseRefund",
      ReleaseRefund,
      { _tag: "ReleaseRefund", ...addressed, refundOrderNo: "SVC-R1", reason: "failed" },
    ],
  ])("%s", (_, schema, input) => {
    expect(verdict(schema, input)).toBe("accepted")
    expect(verdict(Command, input)).toBe("accepted")
    expect(verdict(schema, { ...(input as object), _tag: "Other" })).not.toBe("accepted")
    const { merchantId: _merchantId, ...unaddressed } = input as Record<string, unknown>
    expect(verdict(schema, unaddressed)).toContain("merchantId")
  })
})

describe("events decode under their tag, with the close reasons and refund causes the order knows", () => {
  const revoked = eventsDecidedBy(createOrder({ sharingParamList: [sharingItem(1, 3_000)] }), payOrder(), {
    _tag: "RevokeOrder",
    merchantId,
    now: at(3_600_000),
    refundOrderNo: "SVC-REVOKE",
  })
  /** Whether the event, written as the store holds it (its data is its encoded form), reads back. */
  const decodes = (event: { readonly _tag: string; readonly [field: string]: unknown }) =>
    Result.isSuccess(eventCodec.decode({ type: event._tag, schemaVersion: 1, data: event }))

  it("round-trips a revoke's events (cause REVOKE) and a request's reservation (cause REQUEST)", () => {
    const requested = eventsDecidedBy(createOrder(), payOrder(), reserveRefund())
    for (const event of [...revoked, ...requested]) expect(decodes(event)).toBe(true)
    expect(revoked.map((e) => e._tag)).toEqual(["OrderCreated", "OrderPaid", "RefundReserved", "OrderRevoked"])
  })

  it.each(["ORDER_EXPIRED", "ORDER_CANCELLED", "ORDER_REVOKED", "PAYMENT_FAILED"])(
    "closes an order for %s",
    (failCode) => expect(decodes({ _tag: "OrderClosed", failCode, failDes: "closed", closedAt: at(1) })).toBe(true),
  )

  it("refuses a close reason or a refund cause it does not know", () => {
    expect(decodes({ _tag: "OrderClosed", failCode: "ORDER_LOST", failDes: "closed", closedAt: at(1) })).toBe(false)
    const [, , reservation] = revoked
    if (reservation?._tag !== "RefundReserved") throw new Error("no reservation")
    expect(decodes({ ...reservation, cause: "GIFT" })).toBe(false)
  })
})
