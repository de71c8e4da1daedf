/**
 * A payer paying or failing to pay an order: what the sandbox API and the
 * hosted pay page report to the acquiring order. In production these
 * outcomes would come from the payment channels; the gateway ships none.
 */

import { randomUUID } from "node:crypto"
import { AcquiringOrder } from "@mizan/acquiring"
import { type Fils, type Timestamp, zeroFils } from "@mizan/kernel"
import { onOrder, readOrderExpiringIfDue } from "@mizan/order-flows"
import { Effect } from "effect"
import type { Merchant } from "./pipeline/apiSettings.ts"

export interface PaymentDetails {
  readonly payChannel?: string
  readonly paidAmountFils?: Fils
  readonly payer?: Partial<AcquiringOrder.PayerRecord>
  readonly cardInfo?: AcquiringOrder.CardInfo
}

/** A sandbox payer, when the caller names none. */
export const sandboxPayer: AcquiringOrder.PayerRecord = {
  payerMid: "SANDBOXPAYER01",
  mobileNumberMask: "97150****001",
  deviceId: "sandbox-device",
  ipAddress: "127.0.0.1",
}

/** A sandbox card for the DIRECTPAY scene (only its last 4 digits, as ever). */
export const sandboxCard: AcquiringOrder.CardInfo = {
  brand: "VISA",
  last4: "4242",
  cardType: "CC",
  expMonth: "12",
  expYear: "30",
}

export const payOrder = Effect.fn("Gateway.payOrder")(function* (
  merchant: Merchant,
  merchantOrderNo: string,
  now: Timestamp,
  details: PaymentDetails = {},
) {
  const merchantId = merchant.partnerId
  const streamId = AcquiringOrder.streamId(merchantId, merchantOrderNo)
  const order = yield* readOrderExpiringIfDue(merchantId, streamId, now)
  return yield* onOrder(streamId, {
    _tag: "PayOrder",
    merchantId,
    now,
    attemptId: randomUUID(),
    paidAmountFils: details.paidAmountFils ?? order.request.totalAmountFils,
    payChannel: details.payChannel ?? (order.request.paySceneCode === "DIRECTPAY" ? "BANKCARD" : "BALANCE"),
    payerFeeFils: zeroFils,
    feePlan: merchant.acquiringFees,
    payer: { ...sandboxPayer, ...details.payer },
    ...(order.request.paySceneCode === "DIRECTPAY" ? { cardInfo: details.cardInfo ?? sandboxCard } : {}),
  })
})

export const failPayment = Effect.fn("Gateway.failPayment")(function* (
  merchant: Merchant,
  merchantOrderNo: string,
  now: Timestamp,
  failure: { readonly payerMid?: string; readonly failCode?: string; readonly failDes?: string } = {},
) {
  const merchantId = merchant.partnerId
  const streamId = AcquiringOrder.streamId(merchantId, merchantOrderNo)
  yield* readOrderExpiringIfDue(merchantId, streamId, now)
  return yield* onOrder(streamId, {
    _tag: "FailPaymentAttempt",
    merchantId,
    now,
    attemptId: randomUUID(),
    payerMid: failure.payerMid ?? sandboxPayer.payerMid,
    failCode: failure.failCode ?? "PAYMENT_DECLINED",
    failDes: failure.failDes ?? "the payer's payment was declined",
  })
})
