/**
 * What an order records when it closes or is paid, as the merchant reads it
 * on the order: each closure's failCode and failDes, a DIRECTPAY card's id,
 * and that a revoke's refund never stands for a merchant's refund request.
 */
import { fold } from "@mizan/eventsourcing"
import { hourMs } from "@mizan/kernel"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  aggregate as acquiringOrder,
  type Command,
  decide,
  isOrder,
  type Order,
  requestedRefund,
} from "../src/acquiringOrder.ts"
import {
  at,
  createOrder,
  eventsDecidedBy,
  merchantId,
  payOrder,
  reserveRefund,
  sharingItem,
} from "../src/testing/index.ts"

const orderAfter = (...commands: ReadonlyArray<Command>): Order => {
  const state = fold(acquiringOrder, eventsDecidedBy(...commands))
  if (!isOrder(state)) throw new Error("no order")
  return state
}
const failureOf = (order: Order) => (order.status === "FAILURE" ? order.failure : undefined)
const revoke: Command = { _tag: "RevokeOrder", merchantId, now: at(3_600_000), refundOrderNo: "SVC-REVOKE" }

describe("each closure says why the order failed", () => {
  it.each<[string, ReadonlyArray<Command>, string, string]>([
    [
      "expired unpaid",
      [createOrder(), { _tag: "ExpireOrder", merchantId, now: at(2 * hourMs) }],
      "ORDER_EXPIRED",
      "the order expired unpaid",
    ],
    [
      "cancelled",
      [createOrder(), { _tag: "CancelOrder", merchantId, now: at(1) }],
      "ORDER_CANCELLED",
      "the merchant cancelled the unpaid order",
    ],
    ["revoked unpaid", [createOrder(), revoke], "ORDER_REVOKED", "the unpaid order was revoked"],
    [
      "revoked paid",
      [createOrder(), payOrder(), revoke],
      "ORDER_REVOKED",
      "the paid order was revoked and its payment is refunded",
    ],
    [
      "a one-time payment that failed",
      [
        createOrder({ paySceneParams: { oneTimePayment: "true" } }),
        {
          _tag: "FailPaymentAttempt",
          merchantId,
          now: at(1),
          attemptId: "a-1",
          payerMid: "PAYER-1",
          failCode: "DECLINED",
          failDes: "declined",
        },
      ],
      "PAYMENT_FAILED",
      "the one-time payment attempt failed",
    ],
  ])("%s: %s", (_, commands, failCode, failDes) =>
    expect(failureOf(orderAfter(...commands))).toMatchObject({ failCode, failDes }),
  )
})

describe("a DIRECTPAY payment keeps the card's id when the channel gave one", () => {
  const card = { brand: "VISA", last4: "4242", cardType: "CC", expMonth: "09", expYear: "29" } as const
  const paymentCard = (cardInfo: typeof card & { cardId?: string }) => {
    const order = orderAfter(createOrder({ paySceneCode: "DIRECTPAY" }), payOrder({ cardInfo }))
    return order.status === "PAID_SUCCESS" ? order.payment.cardInfo : undefined
  }
  it("with an id", () =>
    expect(paymentCard({ ...card, cardId: "CARD-7" })).toStrictEqual({ ...card, cardId: "CARD-7" }))
  it("without one", () => expect(paymentCard(card)).toStrictEqual(card))
})

describe("a revoke's refund is not a refund the merchant requested", () => {
  // The revoke's refund is named after the order's own merchantOrderNo, ORDER-1.
  const revoked = orderAfter(
    createOrder({ sharingParamList: [sharingItem(1, 3_000)] }),
    payOrder(),
    { _tag: "SettleOrder", merchantId, now: at(120_000) },
    revoke,
  )

  it("is not found as a requested refund under its number", () => {
    expect(revoked.refunds.map((r) => [r.cause, r.request.refundMerchantOrderNo])).toEqual([["REVOKE", "ORDER-1"]])
    expect(requestedRefund(revoked, "ORDER-1")).toBeUndefined()
  })

  it("so a refund request under that number is refused as a refund of a revoked order (62040), not as a reused number (62017)", () => {
    const decided = decide(reserveRefund({ refundMerchantOrderNo: "ORDER-1" }), revoked)
    expect(Result.isFailure(decided) && decided.failure.code).toBe("ACQUIRE_ORDER_REVOKED")
  })
})
