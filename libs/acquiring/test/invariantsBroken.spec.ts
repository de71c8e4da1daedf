/**
 * Each rule of `invariants` on states no decider writes, built by hand as a
 * damaged or hand-edited store could hold them: the exact broken rule and its
 * detail, and the same state one fils inside the rule, which breaks nothing.
 *
 * The order: AED 100.00 paid in full at 2.5%, sharing item 1 owed 30.00, item 2
 * owed 10.00 and withholding the fee. So the accounts received: the payee
 * 60.00, item 1 30.00, item 2 7.50 (10.00 minus the 2.50 fee), the fee account
 * 2.50.
 */
import { fold } from "@mizan/eventsourcing"
import { type Fils, fils } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import {
  aggregate as acquiringOrder,
  type BrokenRule,
  type Event,
  invariants,
  isOrder,
  type Order,
  type RefundReservation,
  rules,
  type State,
} from "../src/acquiringOrder.ts"
import { feeTotalFils } from "../src/settlement.ts"
import { at, createOrder, eventsDecidedBy, merchantId, payOrder, sharingItem } from "../src/testing/index.ts"

const orderOf = (state: State): Order => {
  if (!isOrder(state)) throw new Error("no order")
  return state
}

const created = eventsDecidedBy(createOrder({ sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 1_000, true)] }))
const paidEvents = eventsDecidedBy(
  createOrder({ sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 1_000, true)] }),
  payOrder(),
)
const unpaid = orderOf(fold(acquiringOrder, created))
const paid = orderOf(fold(acquiringOrder, paidEvents))

interface Parts {
  readonly payee?: number
  readonly fee?: number
  readonly sharing1?: number
  readonly sharing2?: number
  readonly status?: RefundReservation["status"]
  readonly refundOrderNo?: string
  readonly cause?: RefundReservation["cause"]
}

/** A reservation whose request amount is the sum of its parts (so its allocation sums). */
const reservation = (parts: Parts, index: number): RefundReservation => {
  const { payee = 0, fee = 0, sharing1 = 0, sharing2 = 0 } = parts
  const sharing = [
    ...(sharing1 > 0 ? [{ sharingIdentitySeqId: 1, amountFils: fils(sharing1) }] : []),
    ...(sharing2 > 0 ? [{ sharingIdentitySeqId: 2, amountFils: fils(sharing2) }] : []),
  ]
  const refundOrderNo = parts.refundOrderNo ?? `R${index + 1}`
  return {
    refundOrderNo,
    cause: parts.cause ?? "REQUEST",
    request: { refundMerchantOrderNo: refundOrderNo, amountFils: fils(payee + fee + sharing1 + sharing2) },
    allocation: { payeeFils: fils(payee), feeFils: fils(fee), sharing },
    reservedAt: at(3_600_000),
    status: parts.status ?? "PENDING",
  }
}

const totalOf = (refunds: ReadonlyArray<RefundReservation>, status: RefundReservation["status"]): Fils =>
  fils(refunds.filter((r) => r.status === status).reduce((total, r) => total + r.request.amountFils, 0))

/** The order with these refunds and counters that agree with them. */
const withRefunds = (order: Order, ...parts: ReadonlyArray<Parts>): Order => {
  const refunds = parts.map(reservation)
  return {
    ...order,
    refunds,
    refundedFils: totalOf(refunds, "SUCCEEDED"),
    pendingRefundFils: totalOf(refunds, "PENDING"),
  }
}

const broken = (rule: string, detail: string): BrokenRule => ({ rule, detail })

describe("invariants hold on the orders the decider writes", () => {
  it.each([
    ["a created order", unpaid],
    ["a paid order", paid],
    [
      "a paid order whose accounts all gave back exactly what they received",
      withRefunds(paid, { payee: 6_000, sharing1: 3_000, sharing2: 750, fee: 250 }),
    ],
    [
      "a paid order with a refund of each status",
      withRefunds(paid, { payee: 100, status: "SUCCEEDED" }, { payee: 200 }, { payee: 9_000, status: "RELEASED" }),
    ],
  ])("%s", (_, order) => expect(invariants(order)).toEqual([]))
})

describe("rule: no account gives back more than it received", () => {
  it.each([
    ["the payee", { payee: 6_001, fee: 0 }, "the payee account gives back 6001 of 6000"],
    ["sharing item 1", { sharing1: 3_001 }, "sharing account 1 gives back 3001 of 3000"],
    ["sharing item 2 (the fee withheld)", { sharing2: 751 }, "sharing account 2 gives back 751 of 750"],
    ["the fee account", { fee: 251 }, "the fee account gives back 251 of 250"],
  ])("reports %s one fils past what it received", (_, parts: Parts, detail) =>
    expect(invariants(withRefunds(paid, parts))).toEqual([broken(rules.accountsWithinReceived, detail)]),
  )

  it("reads each sharing account's own part of an allocation that names two", () =>
    expect(invariants(withRefunds(paid, { sharing1: 10, sharing2: 751 }))).toEqual([
      broken(rules.accountsWithinReceived, "sharing account 2 gives back 751 of 750"),
    ]))

  it("adds up every refund pending or succeeded on an account", () =>
    expect(invariants(withRefunds(paid, { payee: 3_000, status: "SUCCEEDED" }, { payee: 3_001 }))).toEqual([
      broken(rules.accountsWithinReceived, "the payee account gives back 6001 of 6000"),
    ]))

  it("leaves out a released refund", () =>
    expect(invariants(withRefunds(paid, { payee: 6_000 }, { payee: 1, status: "RELEASED" }))).toEqual([]))

  it("counts the fee the payee bore as the fee account's", () => {
    const payeeBears = orderOf(
      fold(acquiringOrder, eventsDecidedBy(createOrder({ sharingParamList: [sharingItem(1, 3_000)] }), payOrder())),
    )
    expect(invariants(withRefunds(payeeBears, { fee: 250 }))).toEqual([])
    expect(invariants(withRefunds(payeeBears, { sharing1: 3_001 }))).toEqual([
      broken(rules.accountsWithinReceived, "sharing account 1 gives back 3001 of 3000"),
    ])
    expect(invariants(withRefunds(payeeBears, { fee: 251 }))).toEqual([
      broken(rules.accountsWithinReceived, "the fee account gives back 251 of 250"),
    ])
  })
})

describe("rule: refunds not failed never exceed the paid amount", () => {
  it("reports a fils more than paid, pending and succeeded apart", () =>
    expect(
      invariants(
        withRefunds(paid, { payee: 6_000, fee: 250, sharing1: 3_000, status: "SUCCEEDED" }, { sharing2: 751 }),
      ),
    ).toEqual([
      broken(rules.accountsWithinReceived, "sharing account 2 gives back 751 of 750"),
      broken(rules.refundsWithinPaid, "9250 refunded + 751 pending > 10000 paid"),
    ]))
})

describe("rule: remainRefundAmount is paid minus succeeded minus pending refunds", () => {
  it.each([
    ["refunded", { refundedFils: fils(0) }, "refunded 0 / pending 200, refunds say 100 / 200"],
    ["pending", { pendingRefundFils: fils(0) }, "refunded 100 / pending 0, refunds say 100 / 200"],
  ])("reports a %s counter that disagrees with the refunds", (_, counter, detail) => {
    const order = withRefunds(
      paid,
      { payee: 100, status: "SUCCEEDED" },
      { payee: 200 },
      { payee: 400, status: "RELEASED" },
    )
    expect(invariants({ ...order, ...counter })).toEqual([broken(rules.refundCounters, detail)])
  })
})

describe("rule: every refund allocation sums to its refund amount", () => {
  it.each([
    ["a fils more", 1_001],
    ["a fils less", 999],
  ])("reports parts %s than the refund", (_, partsFils) => {
    const order = withRefunds(paid, { payee: 1_000 })
    const [refund] = order.refunds
    if (refund === undefined) throw new Error("no refund")
    const skewed = { ...refund, allocation: { ...refund.allocation, payeeFils: fils(partsFils) } }
    expect(invariants({ ...order, refunds: [skewed] })).toEqual([
      broken(rules.allocationSums, `refund R1: parts ${partsFils} != 1000`),
    ])
  })
})

describe("rule: refund order numbers are unique on an order", () => {
  it("reports two refunds under one number", () =>
    expect(
      invariants(withRefunds(paid, { payee: 10, refundOrderNo: "R1" }, { payee: 20, refundOrderNo: "R1" })),
    ).toEqual([broken(rules.refundNumbersUnique, "R1, R1")]))
})

describe("rules of the payment split", () => {
  const { payment } = paid as Extract<Order, { status: "PAID_SUCCESS" }>
  const withPayment = (changes: Partial<typeof payment>): Order =>
    ({ ...paid, payment: { ...payment, ...changes } }) as Order
  const settlement = payment.settlement

  it("sums a damaged split's fees as read (a payee fee of -1), so the audit's totals report it and never throw", () => {
    expect(feeTotalFils({ ...settlement, payeeFeeAmountFils: -1 as Fils, sharing: [] })).toBe(-1)
  })

  it("reports a split that hands out a fils less than paid (paid = payee settlement + sharing settled + fees)", () =>
    expect(invariants(withPayment({ settlement: { ...settlement, settlementAmountFils: fils(5_999) } }))).toEqual([
      broken(rules.splitSums, "split 9999 != paid 10000"),
    ]))

  it.each([
    ["payee's fee", { payeeFeeAmountFils: fils(1) }, "split 10001 != paid 10000"],
    [
      "sharing settled amount",
      { sharing: [{ ...settlement.sharing[0], sharingSettledAmountFils: fils(3_001) }, settlement.sharing[1]] },
      "split 10001 != paid 10000",
    ],
    [
      "sharing fee",
      { sharing: [settlement.sharing[0], { ...settlement.sharing[1], sharingSettledFeeAmountFils: fils(251) }] },
      "split 10001 != paid 10000",
    ],
  ])("reports a split whose %s is a fils too much", (_, changes, detail) =>
    expect(invariants(withPayment({ settlement: { ...settlement, ...(changes as object) } }))).toEqual([
      broken(rules.splitSums, detail),
    ]),
  )

  it.each([
    ["leaves out an item", [1], "items [1,2], split [1]"],
    ["adds an item the order does not have", [1, 2, 3], "items [1,2], split [1,2,3]"],
    ["names the items in another order", [2, 1], "items [1,2], split [2,1]"],
  ])("reports a split that %s", (_, seqIds, detail) => {
    const sharing = seqIds.map((sharingIdentitySeqId) => ({
      sharingIdentitySeqId,
      sharingSettledAmountFils: fils(0),
      sharingSettledFeeAmountFils: fils(0),
    }))
    const sums = { settlementAmountFils: fils(10_000), payeeFeeAmountFils: fils(0) }
    expect(invariants(withPayment({ settlement: { ...sums, sharing } }))).toEqual([
      broken(rules.splitCoversSharing, detail),
    ])
  })

  it("reports a paid amount a fils above totalAmount, and accepts it equal", () => {
    const above = withPayment({
      paidAmountFils: fils(10_001),
      settlement: { ...settlement, settlementAmountFils: fils(6_001) },
    })
    expect(invariants(above)).toEqual([broken(rules.paidWithinTotal, "10001 > 10000")])
    expect(invariants(withPayment({ paidAmountFils: fils(10_000) }))).toEqual([])
  })
})

describe("rules of an unpaid or revoked order", () => {
  it("reports a refund on an unpaid order, which has nothing to refund", () =>
    expect(invariants(withRefunds(unpaid, { payee: 100 }))).toEqual([
      broken(rules.refundsNeedPayment, "1 refunds"),
      broken(rules.refundsWithinPaid, "0 refunded + 100 pending > 0 paid"),
    ]))

  it("reports an unpaid order marked revoked", () =>
    expect(invariants({ ...unpaid, revoked: true })).toEqual([
      broken(rules.revokedWasPaid, "revoked without a payment"),
    ]))

  it("reports a revoked paid order without the refund its revoke started, and accepts it with one", () => {
    const revoked = { ...paid, revoked: true }
    expect(invariants(withRefunds(revoked, { payee: 100 }))).toEqual([
      broken(rules.revokedWasPaid, "no refund started by the revoke"),
    ])
    expect(invariants(withRefunds(revoked, { payee: 100, cause: "REVOKE" }))).toEqual([])
  })
})

describe("rule: only the spec's status transitions happen (evolve writes down what does not fit)", () => {
  const settle: Event = { _tag: "OrderSettled", settledAt: at(2) }
  const close: Event = { _tag: "OrderClosed", failCode: "ORDER_CANCELLED", failDes: "cancelled", closedAt: at(2) }
  const revoke: Event = { _tag: "OrderRevoked", revokedAt: at(2) }
  const [createdEvent, paidEvent] = paidEvents
  if (createdEvent === undefined || paidEvent === undefined) throw new Error("no order")
  const failedAttempt: Event = {
    _tag: "PaymentAttemptFailed",
    attemptId: "a-2",
    payerMid: "PAYER-1",
    failCode: "DECLINED",
    failDes: "declined",
    failedAt: at(1),
  }
  const reserve = (refundOrderNo: string): Event => ({
    _tag: "RefundReserved",
    refundOrderNo,
    cause: "REQUEST",
    request: { refundMerchantOrderNo: refundOrderNo, amountFils: fils(100) },
    allocation: { payeeFils: fils(100), feeFils: fils(0), sharing: [] },
    reservedAt: at(3),
  })
  /** Paid, settled and revoked by the decider: the revoke's refund SVC-REVOKE is pending. */
  const settledRevoked = eventsDecidedBy(
    createOrder({ sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 1_000, true)] }),
    payOrder(),
    { _tag: "SettleOrder", merchantId, now: at(120_000) },
    { _tag: "RevokeOrder", merchantId, now: at(3_600_000), refundOrderNo: "SVC-REVOKE" },
  )
  const confirm = (refundOrderNo: string): Event => ({ _tag: "RefundConfirmed", refundOrderNo, confirmedAt: at(4) })
  const release = (refundOrderNo: string): Event => ({
    _tag: "RefundReleased",
    refundOrderNo,
    reason: "failed",
    releasedAt: at(4),
  })

  it.each<[string, ReadonlyArray<Event>, string]>([
    ["an event before the order", [settle], "OrderSettled before the order was created"],
    ["a second creation", [createdEvent, createdEvent], "OrderCreated on an order that already exists"],
    [
      "a failed attempt on a paid order",
      [createdEvent, paidEvent, failedAttempt],
      "PaymentAttemptFailed on a PAID_SUCCESS order",
    ],
    ["a payment of a closed order", [createdEvent, close, paidEvent], "OrderPaid on a FAILURE order"],
    ["a settlement of an unpaid order", [createdEvent, settle], "OrderSettled on a CREATED order"],
    ["a closure of a paid order", [createdEvent, paidEvent, close], "OrderClosed on a PAID_SUCCESS order"],
    ["a revoke of an unpaid order", [createdEvent, revoke], "OrderRevoked on a CREATED order"],
    ["a second revoke", [...settledRevoked, revoke], "OrderRevoked on a revoked SETTLED order"],
    ["a refund of an unpaid order", [createdEvent, reserve("R1")], "RefundReserved on a CREATED order"],
    ["a refund of a revoked order", [...settledRevoked, reserve("R1")], "RefundReserved on a revoked SETTLED order"],
    [
      "a refund under a used number",
      [createdEvent, paidEvent, reserve("R1"), reserve("R1")],
      "RefundReserved on a PAID_SUCCESS order",
    ],
    [
      "a confirmation of no refund",
      [createdEvent, paidEvent, confirm("R1")],
      "RefundConfirmed on a PAID_SUCCESS order",
    ],
    [
      "a release of a confirmed refund",
      [createdEvent, paidEvent, reserve("R1"), confirm("R1"), release("R1")],
      "RefundReleased on a PAID_SUCCESS order",
    ],
  ])("reports %s and leaves the order as it was", (_, events, detail) => {
    const state = fold(acquiringOrder, events)
    const before = fold(acquiringOrder, events.slice(0, -1))
    expect(invariants(state)).toEqual([broken(rules.transitions, detail)])
    expect({ ...state, anomalies: [] }).toEqual({ ...before, anomalies: [] })
  })

  it("keeps a revoked order's refund ending after it became FAILURE", () => {
    const revokedPaid = eventsDecidedBy(createOrder({ sharingParamList: [sharingItem(1, 3_000)] }), payOrder(), {
      _tag: "RevokeOrder",
      merchantId,
      now: at(3_600_000),
      refundOrderNo: "SVC-REVOKE",
    })
    expect(invariants(fold(acquiringOrder, [...revokedPaid, confirm("SVC-REVOKE")]))).toEqual([])
  })
})
