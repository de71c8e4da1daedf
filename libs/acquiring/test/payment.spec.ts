import { deciderSpec } from "@mizan/eventsourcing/testing"
import { fils, hourMs } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import { aggregate as acquiringOrder, type Command, type FailPaymentAttempt } from "../src/acquiringOrder.ts"
import { at, createOrder, eventsDecidedBy, merchantId, payOrder, t0 } from "../src/testing/index.ts"

const spec = deciderSpec(acquiringOrder)
const created = eventsDecidedBy(createOrder())
const paid = eventsDecidedBy(createOrder(), payOrder())
const settle: Command = { _tag: "SettleOrder", merchantId, now: at(hourMs) }
const settled = eventsDecidedBy(createOrder(), payOrder(), settle)
const expiredTime = t0 + 2 * hourMs

const failAttempt = (overrides: Partial<FailPaymentAttempt> = {}): FailPaymentAttempt => ({
  _tag: "FailPaymentAttempt",
  merchantId,
  now: at(30_000),
  attemptId: "attempt-0",
  payerMid: "PAYER-1",
  failCode: "CARD_DECLINED",
  failDes: "the issuer declined the card",
  ...overrides,
})

const card = { brand: "VISA", last4: "4242", cardType: "CC", expMonth: "09", expYear: "29" } as const

describe("payment", () => {
  it("pays a CREATED order: PAID_SUCCESS with paymentInfo, the split and the payer record", () =>
    spec
      .given(created)
      .when(payOrder())
      .thenState((state) =>
        expect(state).toMatchObject({
          status: "PAID_SUCCESS",
          boundPayerMid: "PAYER-1",
          payment: {
            paidAmountFils: 10_000,
            paidTime: at(60_000),
            payChannel: "BANKCARD",
            payer: { payerMid: "PAYER-1", mobileNumberMask: "97150***4567", deviceId: "device-1" },
            // 2.5% of 100.00 AED is 2.50 AED, borne by the payee.
            settlement: { settlementAmountFils: 9_750, payeeFeeAmountFils: 250, sharing: [] },
          },
        }),
      ))

  it("accepts a paid amount below totalAmount (a discount) and refuses one above it (400)", () => {
    spec
      .given(created)
      .when(payOrder({ paidAmountFils: fils(9_000) }))
      .thenState((state) => expect(state).toMatchObject({ payment: { paidAmountFils: 9_000 } }))
    spec
      .given(created)
      .when(payOrder({ paidAmountFils: fils(10_001) }))
      .thenRejects({ code: "INVALID_PARAMETER" })
  })

  it("keeps cardInfo only for the DIRECTPAY scene", () => {
    spec
      .given(eventsDecidedBy(createOrder({ paySceneCode: "DIRECTPAY" })))
      .when(payOrder({ cardInfo: card }))
      .thenState((state) => expect(state).toMatchObject({ payment: { cardInfo: card } }))
    spec
      .given(created)
      .when(payOrder({ cardInfo: card }))
      .thenState((state) =>
        expect(state.status !== "ABSENT" && state.status !== "CREATED" && state.payment).not.toHaveProperty("cardInfo"),
      )
  })

  it("never lets a card number put beside cardInfo reach an event", () => {
    const withNumber = { ...card, cardNo: "4242424242424242" }
    const events = eventsDecidedBy(createOrder({ paySceneCode: "DIRECTPAY" }), payOrder({ cardInfo: withNumber }))
    expect(JSON.stringify(events)).not.toContain("4242424242424242")
  })

  it("decides nothing when the same payment is reported again, later, even after settlement", () => {
    spec
      .given(paid)
      .when(payOrder({ now: at(90_000) }))
      .thenNothing()
    spec.given(settled).when(payOrder()).thenNothing()
  })

  it("refuses another payment of a paid order with 62001", () =>
    spec
      .given(paid)
      .when(payOrder({ attemptId: "attempt-2" }))
      .thenRejects({ code: "ORDER_PAID" }))

  it("refuses to pay a closed order with 62002", () =>
    spec
      .given(eventsDecidedBy(createOrder(), { _tag: "CancelOrder", merchantId, now: at(1) }))
      .when(payOrder())
      .thenRejects({ code: "ORDER_FAILURE" }))

  it("pays until the last millisecond before expiredTime and refuses from expiredTime on with 62002", () => {
    spec
      .given(created)
      .when(payOrder({ now: at(2 * hourMs - 1) }))
      .thenState((state) => expect(state.status).toBe("PAID_SUCCESS"))
    spec
      .given(created)
      .when(payOrder({ now: at(2 * hourMs) }))
      .thenRejects({ code: "ORDER_FAILURE", detail: expect.stringContaining("expired") })
  })
})

describe("failed payment attempts", () => {
  it("records a failed attempt and keeps the order open by default (oneTimePayment false)", () =>
    spec
      .given(created)
      .when(failAttempt())
      .thenState((state) =>
        expect(state).toMatchObject({ status: "CREATED", failedAttempts: [{ attemptId: "attempt-0" }] }),
      ))

  it("pays after a failed attempt when oneTimePayment is false", () =>
    spec
      .given(eventsDecidedBy(createOrder(), failAttempt()))
      .when(payOrder())
      .thenState((state) => expect(state.status).toBe("PAID_SUCCESS")))

  it("closes the order on a failed first attempt when oneTimePayment is true, and refuses to pay it with 62002", () => {
    const oneTime = createOrder({ paySceneParams: { oneTimePayment: "true" } })
    spec
      .given(eventsDecidedBy(oneTime))
      .when(failAttempt())
      .thenState((state) => expect(state).toMatchObject({ status: "FAILURE", failure: { failCode: "PAYMENT_FAILED" } }))
    spec.given(eventsDecidedBy(oneTime, failAttempt())).when(payOrder()).thenRejects({ code: "ORDER_FAILURE" })
  })

  it("decides nothing when the same failed attempt is reported again", () =>
    spec.given(eventsDecidedBy(createOrder(), failAttempt())).when(failAttempt()).thenNothing())

  it("refuses to turn a failed attempt into a payment (400)", () =>
    spec
      .given(eventsDecidedBy(createOrder(), failAttempt()))
      .when(payOrder({ attemptId: "attempt-0" }))
      .thenRejects({ code: "INVALID_PARAMETER" }))

  it("refuses a failed attempt on a paid order with 62001 and on a closed one with 62002", () => {
    spec.given(paid).when(failAttempt()).thenRejects({ code: "ORDER_PAID" })
    spec
      .given(eventsDecidedBy(createOrder(), { _tag: "CancelOrder", merchantId, now: at(1) }))
      .when(failAttempt())
      .thenRejects({ code: "ORDER_FAILURE" })
  })
})

describe("changePayer", () => {
  const otherPayer = payOrder({ payer: { ...payOrder().payer, payerMid: "PAYER-2" } })

  it("refuses another payer once the first one tried, when changePayer is true (the default), with 601", () => {
    spec.given(eventsDecidedBy(createOrder(), failAttempt())).when(otherPayer).thenRejects({ code: "RISK_FAIL" })
    spec
      .given(eventsDecidedBy(createOrder(), failAttempt()))
      .when(failAttempt({ attemptId: "attempt-9", payerMid: "PAYER-2" }))
      .thenRejects({ code: "RISK_FAIL" })
  })

  it("lets the first payer try again when changePayer is true", () =>
    spec
      .given(eventsDecidedBy(createOrder(), failAttempt()))
      .when(payOrder())
      .thenState((state) => expect(state.status).toBe("PAID_SUCCESS")))

  it("lets another payer pay after the first one failed when changePayer is false", () =>
    spec
      .given(eventsDecidedBy(createOrder({ paySceneParams: { changePayer: "false" } }), failAttempt()))
      .when(otherPayer)
      .thenState((state) => expect(state).toMatchObject({ status: "PAID_SUCCESS", boundPayerMid: "PAYER-1" })))
})

describe("settlement", () => {
  it("settles a paid order: PAID_SUCCESS to SETTLED", () =>
    spec
      .given(paid)
      .when(settle)
      .thenState((state) => expect(state).toMatchObject({ status: "SETTLED", settledAt: at(hourMs) })))

  it("decides nothing when settling a settled order again", () => spec.given(settled).when(settle).thenNothing())

  it("refuses to settle an unpaid order with 62015", () =>
    spec.given(created).when(settle).thenRejects({ code: "ORDER_NOT_PAID" }))

  it("refuses to settle a failed order with 62002", () =>
    spec
      .given(eventsDecidedBy(createOrder(), { _tag: "CancelOrder", merchantId, now: at(1) }))
      .when(settle)
      .thenRejects({ code: "ORDER_FAILURE" }))
})

describe("expiry", () => {
  const expire = (now: number): Command => ({ _tag: "ExpireOrder", merchantId, now: at(now) })

  it("closes a CREATED order at expiredTime: FAILURE with ORDER_EXPIRED", () =>
    spec
      .given(created)
      .when(expire(2 * hourMs))
      .thenState((state) =>
        expect(state).toMatchObject({
          status: "FAILURE",
          failure: { failCode: "ORDER_EXPIRED", failedAt: expiredTime },
        }),
      ))

  it("does nothing before expiredTime, on a paid order, or on a closed one", () => {
    spec
      .given(created)
      .when(expire(2 * hourMs - 1))
      .thenNothing()
    spec
      .given(paid)
      .when(expire(3 * hourMs))
      .thenNothing()
    spec
      .given(eventsDecidedBy(createOrder(), expire(2 * hourMs)))
      .when(expire(3 * hourMs))
      .thenNothing()
  })

  it("refuses to pay an expired order with 62002", () =>
    spec
      .given(eventsDecidedBy(createOrder(), expire(2 * hourMs)))
      .when(payOrder())
      .thenRejects({ code: "ORDER_FAILURE" }))
})

describe("cancel", () => {
  const cancel: Command = { _tag: "CancelOrder", merchantId, now: at(1) }

  it("closes an unpaid order: FAILURE with ORDER_CANCELLED", () =>
    spec
      .given(created)
      .when(cancel)
      .thenState((state) =>
        expect(state).toMatchObject({ status: "FAILURE", failure: { failCode: "ORDER_CANCELLED" } }),
      ))

  it("decides nothing when the order is already closed", () =>
    spec.given(eventsDecidedBy(createOrder(), cancel)).when(cancel).thenNothing())

  it("refuses to cancel a paid order with 62001 and a settled one with 62003", () => {
    spec.given(paid).when(cancel).thenRejects({ code: "ORDER_PAID" })
    spec.given(settled).when(cancel).thenRejects({ code: "ORDER_SETTLED" })
  })
})

describe("an order that does not exist", () => {
  const commands: ReadonlyArray<Command> = [
    payOrder(),
    failAttempt(),
    settle,
    { _tag: "ExpireOrder", merchantId, now: at(1) },
    { _tag: "CancelOrder", merchantId, now: at(1) },
    { _tag: "RevokeOrder", merchantId, now: at(1), refundOrderNo: "SVC-R" },
    { _tag: "ConfirmRefund", merchantId, now: at(1), refundOrderNo: "SVC-R" },
    { _tag: "ReleaseRefund", merchantId, now: at(1), refundOrderNo: "SVC-R", reason: "x" },
  ]
  it.each(commands.map((c) => [c._tag, c] as const))("refuses %s with 62004", (_, command) =>
    spec.given([]).when(command).thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }),
  )

  it("refuses a command of another merchant with 62004", () =>
    spec
      .given(paid)
      .when({ ...settle, merchantId: "M0002" })
      .thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }))
})
