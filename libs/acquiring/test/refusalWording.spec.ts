/**
 * Every refusal the decider gives says what refused it, in words the
 * merchant can act on: the field, the limit, or the order's state. One row
 * per refusal, with its code and its exact detail.
 */
import { fils, hourMs } from "@mizan/kernel"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { type Command, decide, type Event, evolve, initialState } from "../src/acquiringOrder.ts"
import {
  at,
  createOrder,
  eventsDecidedBy,
  merchantId,
  payOrder,
  reserveRefund,
  sharingItem,
  t0,
} from "../src/testing/index.ts"

const addressed = { merchantId, now: at(1) }
const cancel: Command = { _tag: "CancelOrder", ...addressed }
const settle: Command = { _tag: "SettleOrder", ...addressed }
const revoke: Command = { _tag: "RevokeOrder", ...addressed, refundOrderNo: "SVC-REVOKE" }
const confirm = (refundOrderNo: string): Command => ({ _tag: "ConfirmRefund", ...addressed, refundOrderNo })
const release = (refundOrderNo: string): Command => ({
  _tag: "ReleaseRefund",
  ...addressed,
  refundOrderNo,
  reason: "the refund order failed",
})
const failAttempt = (attemptId: string, now = at(1)): Command => ({
  _tag: "FailPaymentAttempt",
  merchantId,
  now,
  attemptId,
  payerMid: "PAYER-2",
  failCode: "DECLINED",
  failDes: "declined",
})

const created = eventsDecidedBy(createOrder())
const paid = eventsDecidedBy(createOrder(), payOrder())
const cancelled = eventsDecidedBy(createOrder(), cancel)
const settled = eventsDecidedBy(createOrder(), payOrder(), settle)
const refunded = eventsDecidedBy(createOrder(), payOrder(), reserveRefund())
const released = eventsDecidedBy(createOrder(), payOrder(), reserveRefund(), release("SVC-REFUND-1"))
const confirmed = eventsDecidedBy(createOrder(), payOrder(), reserveRefund(), confirm("SVC-REFUND-1"))

const refusalOf = (given: ReadonlyArray<Event>, command: Command) => {
  const decided = decide(command, given.reduce(evolve, initialState))
  return Result.isFailure(decided) ? { code: decided.failure.code, detail: decided.failure.detail } : "decided"
}

describe("create order refusals", () => {
  it.each<[string, ReadonlyArray<Event>, Command, string, string]>([
    [
      "another request under a used number",
      paid,
      createOrder({ subject: "Tea" }),
      "ORDER_PAID",
      "merchantOrderNo is already used by an order in status PAID_SUCCESS with other parameters",
    ],
    [
      "an unknown scene",
      [],
      createOrder({ paySceneCode: "KIOSK" }),
      "PAYSCENECODE_ILLEGAL",
      "paySceneCode must be one of PAYPAGE, INAPP, EWALLET, DYNQR, QRPAY, JSAPI, AUTODEBIT, DIRECTPAY, CASHTOPUP, PAYANDSIGN",
    ],
    [
      "an expiry at the request time",
      [],
      createOrder({ expiredTime: t0 }),
      "EXPIREDTIME_LESS_THAN_REQUESTTIME",
      "expiredTime must be after requestTime",
    ],
    [
      "an expiry a millisecond past 48 hours",
      [],
      createOrder({ expiredTime: at(48 * hourMs + 1) }),
      "EXPIREDTIME_TOO_LATER",
      "expiredTime must be at most 48 hours after requestTime",
    ],
    [
      "a secondary merchant without a device",
      [],
      createOrder({ secondaryMerchantId: "SUB-1" }),
      "INVALID_PARAMETER",
      "deviceId is required with secondaryMerchantId",
    ],
    [
      "sharing sequence ids that skip one",
      [],
      createOrder({ sharingParamList: [sharingItem(1, 100), sharingItem(3, 100)] }),
      "INVALID_PARAMETER",
      "sharingParamList sharingIdentitySeqId values must be 1, 2, 3 and so on, each once",
    ],
    [
      "sharing amounts above the total",
      [],
      createOrder({ sharingParamList: [sharingItem(1, 6_000), sharingItem(2, 4_001)] }),
      "INVALID_PARAMETER",
      "sharingParamList sharingAmountFils values sum to AED 100.01, more than totalAmountFils (AED 100.00)",
    ],
    [
      "two items withholding the fee",
      [],
      createOrder({ sharingParamList: [sharingItem(1, 100, true), sharingItem(2, 100, true)] }),
      "INVALID_PARAMETER",
      "sharingParamList may have at most one item with withholdAndRemitFee true",
    ],
  ])("%s", (_, given, command, code, detail) => expect(refusalOf(given, command)).toEqual({ code, detail }))
})

describe("payment, settlement and cancellation refusals", () => {
  it.each<[string, ReadonlyArray<Event>, Command, string, string]>([
    [
      "a payment at the expiry",
      created,
      payOrder({ now: at(2 * hourMs) }),
      "ORDER_FAILURE",
      "the order expired: payment can no longer be completed (expiredTime has passed)",
    ],
    [
      "a payment by a second payer",
      eventsDecidedBy(createOrder(), failAttempt("attempt-0")),
      payOrder(),
      "RISK_FAIL",
      "another payer already started paying this order (changePayer is true)",
    ],
    [
      "a payment of a closed order",
      cancelled,
      payOrder(),
      "ORDER_FAILURE",
      "the order is closed and can no longer be paid",
    ],
    [
      "another payment of a paid order",
      paid,
      payOrder({ attemptId: "attempt-2" }),
      "ORDER_PAID",
      "the order is already paid",
    ],
    [
      "a payment by an attempt that failed",
      eventsDecidedBy(createOrder(), failAttempt("attempt-1")),
      payOrder({ payer: { ...payOrder().payer, payerMid: "PAYER-2" } }),
      "INVALID_PARAMETER",
      "this payment attempt already failed",
    ],
    [
      "a payment above the total",
      created,
      payOrder({ paidAmountFils: fils(10_001) }),
      "INVALID_PARAMETER",
      "paidAmountFils must not be more than totalAmountFils",
    ],
    ["a failed attempt on a closed order", cancelled, failAttempt("attempt-9"), "ORDER_FAILURE", "the order is closed"],
    ["a failed attempt on a paid order", paid, failAttempt("attempt-9"), "ORDER_PAID", "the order is already paid"],
    ["settling an unpaid order", created, settle, "ORDER_NOT_PAID", "an unpaid order cannot be settled"],
    ["settling a closed order", cancelled, settle, "ORDER_FAILURE", "a failed order cannot be settled"],
    [
      "cancelling a paid order",
      paid,
      cancel,
      "ORDER_PAID",
      "the order is already paid, cancellation is not supported: refund or revoke it",
    ],
    [
      "cancelling a settled order",
      settled,
      cancel,
      "ORDER_SETTLED",
      "the order is already settled, cancellation is not supported: refund it",
    ],
    [
      "any command on no order",
      [],
      cancel,
      "MERCHANT_ORDER_NO_NOT_EXIST",
      "merchantOrderNo names no order of this merchant",
    ],
  ])("%s", (_, given, command, code, detail) => expect(refusalOf(given, command)).toEqual({ code, detail }))
})

describe("revoke and refund refusals", () => {
  const day181 = at(180 * 24 * hourMs + 1)
  it.each<[string, ReadonlyArray<Event>, Command, string, string]>([
    [
      "revoking an order with a refund",
      refunded,
      revoke,
      "ACQUIRE_ORDER_REFUNDED",
      "the order already has a refund, so it cannot be revoked",
    ],
    [
      "revoking after 180 days",
      paid,
      { ...revoke, now: day181 },
      "REVOKE_REJECTED",
      "the order is older than 180 days, so its payment can no longer be refunded",
    ],
    [
      "revoking under a used refund number",
      released,
      { ...revoke, refundOrderNo: "SVC-REFUND-1" },
      "INVALID_PARAMETER",
      "refundOrderNo is already used by another refund of this order",
    ],
    [
      "another refund request under a used number",
      refunded,
      reserveRefund({ amountFils: fils(1_001) }),
      "REFUND_MERCHANT_ORDER_NO_EXIST",
      "refundMerchantOrderNo is already used by a refund with other parameters",
    ],
    [
      "a refund for a secondary merchant without a device",
      paid,
      reserveRefund({ secondaryMerchantId: "SUB-1" }),
      "INVALID_PARAMETER",
      "deviceId is required with secondaryMerchantId",
    ],
    [
      "a refund under a used refund order number",
      refunded,
      reserveRefund({ refundMerchantOrderNo: "REFUND-2" }, { refundOrderNo: "SVC-REFUND-1" }),
      "INVALID_PARAMETER",
      "refundOrderNo is already used by another refund of this order",
    ],
    [
      "a refund of a revoked order",
      eventsDecidedBy(createOrder(), payOrder(), revoke),
      reserveRefund({ refundMerchantOrderNo: "REFUND-2" }),
      "ACQUIRE_ORDER_REVOKED",
      "the order has been revoked",
    ],
    ["a refund of an unpaid order", created, reserveRefund(), "ORDER_NOT_PAID", "the order is not paid"],
    ["a refund of a closed order", cancelled, reserveRefund(), "ORDER_FAILURE", "the order is a failed order"],
    [
      "a refund for another secondary merchant",
      paid,
      reserveRefund({ secondaryMerchantId: "SUB-1", deviceId: "device-1" }),
      "INVALID_SECONDARY_MERCHANT",
      "secondaryMerchantId differs from the one of the original order",
    ],
    [
      "a refund after 180 days",
      paid,
      reserveRefund({}, { now: day181 }),
      "REFUND_REJECTED",
      "refunds are only possible for orders created within the last 180 days",
    ],
    [
      "a refund above what is left",
      refunded,
      reserveRefund({ refundMerchantOrderNo: "REFUND-2", amountFils: fils(9_001) }),
      "REFUND_AMOUNT_EXCEEDED",
      "amountFils AED 90.01 is more than the refundable AED 90.00 (paid minus refunded minus pending)",
    ],
    [
      "confirming an unknown refund",
      paid,
      confirm("SVC-NONE"),
      "INVALID_PARAMETER",
      "no refund of this order has this refundOrderNo",
    ],
    [
      "releasing an unknown refund",
      paid,
      release("SVC-NONE"),
      "INVALID_PARAMETER",
      "no refund of this order has this refundOrderNo",
    ],
    [
      "confirming a released refund",
      released,
      confirm("SVC-REFUND-1"),
      "ORDER_FAILURE",
      "the refund failed and was released; it cannot succeed",
    ],
    [
      "releasing a confirmed refund",
      confirmed,
      release("SVC-REFUND-1"),
      "ORDER_SUCCESS",
      "the refund already succeeded; it cannot be released",
    ],
  ])("%s", (_, given, command, code, detail) => expect(refusalOf(given, command)).toEqual({ code, detail }))
})

/** The field a refusal carries as data, or "none". */
const fieldOf = (given: ReadonlyArray<Event>, command: Command) => {
  const decided = decide(command, given.reduce(evolve, initialState))
  return Result.isFailure(decided) ? (decided.failure.field ?? "none") : "decided"
}

describe("the field a refusal is about, as data", () => {
  it.each<[string, ReadonlyArray<Event>, Command, string]>([
    ["a used number", paid, createOrder({ subject: "Tea" }), "merchantOrderNo"],
    ["an expiry before the request", [], createOrder({ expiredTime: t0 }), "expiredTime"],
    [
      "sharing amounts above the total",
      [],
      createOrder({ sharingParamList: [sharingItem(1, 6_000), sharingItem(2, 4_001)] }),
      "sharingParamList",
    ],
    ["a payment above the total", created, payOrder({ paidAmountFils: fils(10_001) }), "paidAmountFils"],
    [
      "a used refund number with other parameters",
      refunded,
      reserveRefund({ amountFils: fils(9_001) }),
      "refundMerchantOrderNo",
    ],
    [
      "a refund above what is left",
      refunded,
      reserveRefund({ refundMerchantOrderNo: "REFUND-2", amountFils: fils(9_001) }),
      "amountFils",
    ],
    ["a command on no order", [], cancel, "merchantOrderNo"],
    // A refusal about the order's state names no field of the request.
    ["a refund of an unpaid order", created, reserveRefund(), "none"],
  ])("%s", (_, given, command, field) => expect(fieldOf(given, command)).toBe(field))
})
