/** The event the store benchmarks write: a payment of about 300 bytes of JSON, the size of Mizan's domain events. */
import type { NewEvent } from "@mizan/eventsourcing"

/** The data of the `n`th payment: every number and order number differs from one event to the next. */
export const paymentData = (n: number) => ({
  merchantId: "M000000042",
  merchantOrderNo: `order-${n}`,
  orderNo: `2026112100000${n}`,
  amountFils: 12_345 + n,
  currency: "AED",
  payMethod: "CARD",
  cardNoDigest: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  cardLast4: "4242",
  notifyUrl: "https://merchant.example/notify",
  paidAt: 1_763_769_600_000 + n,
})

export const paymentEvent = (n: number): NewEvent => ({
  type: "PaymentSucceeded",
  schemaVersion: 1,
  data: paymentData(n),
})
