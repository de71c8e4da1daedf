/**
 * An order whose payer or sharing member was forgotten (crypto-shredding): the
 * sealed store reads their fields as `[forgotten]`. The events still decode
 * and replay, every invariant holds, the answers show the placeholder, and
 * a refund can no longer name a forgotten member by its identity.
 */
import { fold } from "@mizan/eventsourcing"
import { fils, forgotten } from "@mizan/kernel"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  aggregate as acquiringOrder,
  type Command,
  decide,
  type Event,
  eventCodec,
  invariants,
  isOrder,
  type Order,
} from "../src/acquiringOrder.ts"
import { sharingInfoList } from "../src/index.ts"
import {
  createOrder,
  digest,
  eventsDecidedBy,
  merchantId,
  payOrder,
  reserveRefund,
  sharingItem,
  t0,
} from "../src/testing/index.ts"

const commands: ReadonlyArray<Command> = [
  createOrder({
    paySceneParams: { eid: digest(7) },
    sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 1_000)],
  }),
  payOrder(),
]

/** The events as a store reads them once the payer and sharing member 1 are forgotten. */
const forgottenEvents = (): ReadonlyArray<Event> =>
  eventsDecidedBy(...commands).map((event) =>
    event._tag !== "OrderCreated"
      ? event
      : {
          ...event,
          request: {
            ...event.request,
            paySceneParams: { ...event.request.paySceneParams, eid: forgotten },
            sharingParamList: (event.request.sharingParamList ?? []).map((item) =>
              item.sharingIdentitySeqId === 1 ? { ...item, sharingIdentity: forgotten } : item,
            ),
          },
          paySceneParams: { ...event.paySceneParams, eid: forgotten },
        },
  )

const orderOf = (events: ReadonlyArray<Event>): Order => {
  const state = fold(acquiringOrder, events)
  if (!isOrder(state)) throw new Error("no order")
  return state
}

describe("an order whose payer and a sharing member are forgotten", () => {
  it("decodes from its stored form and keeps every invariant", () => {
    const events = forgottenEvents()
    for (const event of events) {
      const stored = JSON.parse(JSON.stringify(eventCodec.encode(event)))
      expect(eventCodec.decode(stored)).toEqual(Result.succeed(event))
    }
    const order = orderOf(events)
    expect(invariants(order)).toEqual([])
  })

  it("answers [forgotten] for the member's identity and the payer's eid, and the others as they were", () => {
    const order = orderOf(forgottenEvents())
    expect(sharingInfoList(order).map((item) => item.sharingIdentity)).toEqual([forgotten, digest(2)])
    expect(order.paySceneParams.eid).toBe(forgotten)
  })

  it("refuses a refund naming the forgotten member by its identity, and takes one in proportion", () => {
    const order = orderOf(forgottenEvents())
    const named = decide(
      reserveRefund({
        amountFils: fils(100),
        refundSharingAmount: true,
        sharingParamList: [
          {
            sharingIdentitySeqId: 1,
            sharingIdentityType: "PHONE_NO",
            sharingIdentity: digest(1),
            sharingMemo: "back",
            sharingAmountFils: fils(100),
          },
        ],
      }),
      order,
    )
    expect(Result.isFailure(named) ? named.failure : undefined).toMatchObject({
      code: "REFUND_SHARING_MEMBER_MISMATCH",
      detail:
        "sharingParamList[0] names sharing member 1 of the order, whose identity is forgotten: refund it in proportion (refundSharingAmount true without sharingParamList)",
    })
    expect(Result.isSuccess(decide(reserveRefund({ amountFils: fils(100), refundSharingAmount: true }), order))).toBe(
      true,
    )
  })
})

const card = { brand: "VISA", cardId: "card-77", last4: "4242", cardType: "CC", expMonth: "12", expYear: "30" } as const
const directPay: ReadonlyArray<Command> = [
  createOrder({
    paySceneCode: "DIRECTPAY",
    paySceneParams: { email: "amal@example.ae", customerId: "customer-9" },
  }),
  payOrder({ cardInfo: card }),
]

/** A DIRECTPAY order's events once its payer is forgotten: the payment's payer and card, and the creation's email and customer id. */
const forgottenPayerEvents = (): ReadonlyArray<Event> =>
  eventsDecidedBy(...directPay).map((event) => {
    switch (event._tag) {
      case "OrderCreated": {
        const params = { email: forgotten, customerId: forgotten }
        return {
          ...event,
          request: { ...event.request, paySceneParams: params },
          paySceneParams: { ...event.paySceneParams, ...params },
        }
      }
      case "OrderPaid":
        return {
          ...event,
          payer: { payerMid: forgotten, mobileNumberMask: forgotten, deviceId: forgotten, ipAddress: forgotten },
          cardInfo: { ...card, cardId: forgotten, last4: forgotten, expMonth: forgotten, expYear: forgotten },
        }
      default:
        return event
    }
  })

describe("an order whose payer is forgotten", () => {
  it("decodes the payment's payer, its card and the scene's email and customer id as [forgotten], and keeps every invariant", () => {
    const events = forgottenPayerEvents()
    for (const event of events) {
      const stored = JSON.parse(JSON.stringify(eventCodec.encode(event)))
      expect(eventCodec.decode(stored)).toEqual(Result.succeed(event))
    }
    const order = orderOf(events)
    expect(invariants(order)).toEqual([])
    expect(order.status === "PAID_SUCCESS" ? order.payment : undefined).toMatchObject({
      payer: { payerMid: forgotten, ipAddress: forgotten },
      cardInfo: { brand: "VISA", cardType: "CC", last4: forgotten },
    })
    expect(order.paySceneParams).toMatchObject({ email: forgotten, customerId: forgotten })
  })

  it("lets no payer pay once the payer bound by changePayer is forgotten: none can be told to be that payer (601)", () => {
    const failed: Command = {
      _tag: "FailPaymentAttempt",
      merchantId,
      now: t0,
      attemptId: "attempt-0",
      payerMid: "PAYER-1",
      failCode: "CARD_DECLINED",
      failDes: "the issuer declined the card",
    }
    const bound = eventsDecidedBy(createOrder(), failed).map((event) =>
      event._tag === "PaymentAttemptFailed" ? { ...event, payerMid: forgotten } : event,
    )
    const order = orderOf(bound)
    expect(order.boundPayerMid).toBe(forgotten)
    const decision = decide(payOrder(), order)
    expect(Result.isFailure(decision) ? decision.failure : undefined).toMatchObject({ code: "RISK_FAIL" })
    // Not even a payer whose id spells the placeholder: it names nobody.
    const placeholder = decide(payOrder({ payer: { ...payOrder().payer, payerMid: forgotten } }), order)
    expect(Result.isFailure(placeholder) ? placeholder.failure : undefined).toMatchObject({ code: "RISK_FAIL" })
  })
})
