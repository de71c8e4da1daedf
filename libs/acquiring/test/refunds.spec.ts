import { deciderSpec } from "@mizan/eventsourcing/testing"
import { dayMs, fils, hourMs, noFees } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import {
  aggregate as acquiringOrder,
  type Command,
  type Event,
  isOrder,
  type RefundSharingParam,
  refundSummary,
  type State,
} from "../src/acquiringOrder.ts"
import {
  at,
  createOrder,
  digest,
  eventsDecidedBy,
  merchantId,
  payOrder,
  reserveRefund,
  sharingItem,
} from "../src/testing/index.ts"

const spec = deciderSpec(acquiringOrder)
const paid = eventsDecidedBy(createOrder(), payOrder())
const confirm = (refundOrderNo: string): Command => ({
  _tag: "ConfirmRefund",
  merchantId,
  now: at(2 * hourMs),
  refundOrderNo,
})
const release = (refundOrderNo: string): Command => ({
  _tag: "ReleaseRefund",
  merchantId,
  now: at(2 * hourMs),
  refundOrderNo,
  reason: "the refund order failed",
})
const summaryOf = (state: State) => (isOrder(state) ? refundSummary(state) : undefined)

describe("refund reservation: the refundable balance", () => {
  it("reserves a refund: PENDING, with remainRefundAmount lowered by it", () =>
    spec
      .given(paid)
      .when(reserveRefund({ amountFils: fils(3_000) }))
      .thenState((state) => {
        expect(state).toMatchObject({
          pendingRefundFils: 3_000,
          refunds: [{ refundOrderNo: "SVC-REFUND-1", cause: "REQUEST", status: "PENDING" }],
        })
        expect(summaryOf(state)).toEqual({ acquireAmountFils: 10_000, remainRefundAmountFils: 7_000 })
      }))

  it("reserves the whole remaining amount, and refuses a fils more with 62006", () => {
    spec
      .given(paid)
      .when(reserveRefund({ amountFils: fils(10_000) }))
      .thenState((state) => expect(summaryOf(state)?.remainRefundAmountFils).toBe(0))
    spec
      .given(paid)
      .when(reserveRefund({ amountFils: fils(10_001) }))
      .thenRejects({ code: "REFUND_AMOUNT_EXCEEDED" })
  })

  it("counts pending and succeeded refunds against the amount: 62006 above paid minus both", () => {
    const twoRefunds = eventsDecidedBy(
      createOrder(),
      payOrder(),
      reserveRefund({ refundMerchantOrderNo: "R1", amountFils: fils(4_000) }),
      confirm("SVC-R1"),
      reserveRefund({ refundMerchantOrderNo: "R2", amountFils: fils(5_000) }),
    )
    spec
      .given(twoRefunds)
      .when(reserveRefund({ refundMerchantOrderNo: "R3", amountFils: fils(1_001) }))
      .thenRejects({ code: "REFUND_AMOUNT_EXCEEDED", detail: expect.stringContaining("refundable AED 10.00") })
    spec
      .given(twoRefunds)
      .when(reserveRefund({ refundMerchantOrderNo: "R3", amountFils: fils(1_000) }))
      .thenState((state) => expect(state).toMatchObject({ refundedFils: 4_000, pendingRefundFils: 6_000 }))
  })

  it("gives a failed refund's amount back to the refundable balance", () =>
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), reserveRefund({ amountFils: fils(10_000) })))
      .when(release("SVC-REFUND-1"))
      .thenState((state) => {
        expect(summaryOf(state)).toEqual({ acquireAmountFils: 10_000, remainRefundAmountFils: 10_000 })
        expect(state).toMatchObject({ refunds: [{ status: "RELEASED" }], pendingRefundFils: 0 })
      }))

  it("refunds a settled order too", () =>
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), { _tag: "SettleOrder", merchantId, now: at(hourMs) }))
      .when(reserveRefund())
      .thenState((state) => expect(state).toMatchObject({ status: "SETTLED", pendingRefundFils: 1_000 })))
})

describe("refund reservation: refusals", () => {
  it("refuses a refund of an unpaid order with 62015", () =>
    spec.given(eventsDecidedBy(createOrder())).when(reserveRefund()).thenRejects({ code: "ORDER_NOT_PAID" }))

  it("refuses a refund of a failed order with 62002", () =>
    spec
      .given(eventsDecidedBy(createOrder(), { _tag: "CancelOrder", merchantId, now: at(1) }))
      .when(reserveRefund())
      .thenRejects({ code: "ORDER_FAILURE" }))

  it("refuses a refund of a revoked order with 62040, settled or not", () => {
    const revoke: Command = { _tag: "RevokeOrder", merchantId, now: at(hourMs), refundOrderNo: "SVC-REVOKE" }
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), revoke))
      .when(reserveRefund())
      .thenRejects({ code: "ACQUIRE_ORDER_REVOKED" })
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), { _tag: "SettleOrder", merchantId, now: at(hourMs) }, revoke))
      .when(reserveRefund())
      .thenRejects({ code: "ACQUIRE_ORDER_REVOKED" })
  })

  it("refuses a secondaryMerchantId other than the order's with 62038", () => {
    const subOrder = eventsDecidedBy(createOrder({ secondaryMerchantId: "SUB-1", deviceId: "POS-1" }), payOrder())
    spec
      .given(subOrder)
      .when(reserveRefund({ secondaryMerchantId: "SUB-2", deviceId: "POS-1" }))
      .thenRejects({ code: "INVALID_SECONDARY_MERCHANT" })
    spec
      .given(paid)
      .when(reserveRefund({ secondaryMerchantId: "SUB-1", deviceId: "POS-1" }))
      .thenRejects({ code: "INVALID_SECONDARY_MERCHANT" })
    spec
      .given(subOrder)
      .when(reserveRefund({ secondaryMerchantId: "SUB-1", deviceId: "POS-1" }))
      .thenState((state) => expect(state).toMatchObject({ pendingRefundFils: 1_000 }))
  })

  it("requires deviceId with secondaryMerchantId (400)", () =>
    spec
      .given(paid)
      .when(reserveRefund({ secondaryMerchantId: "SUB-1" }))
      .thenRejects({ code: "INVALID_PARAMETER", detail: "deviceId is required with secondaryMerchantId" }))

  it("refunds up to 180 days after the order's requestTime and refuses later with 62045", () => {
    spec
      .given(paid)
      .when(reserveRefund({}, { now: at(180 * dayMs) }))
      .thenState((state) => expect(state).toMatchObject({ pendingRefundFils: 1_000 }))
    spec
      .given(paid)
      .when(reserveRefund({}, { now: at(180 * dayMs + 1) }))
      .thenRejects({ code: "REFUND_REJECTED", detail: expect.stringContaining("180 days") })
  })

  it("refuses a refund of an order that does not exist with 62004", () =>
    spec.given([]).when(reserveRefund()).thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }))
})

describe("refund reservation: idempotency by refundMerchantOrderNo", () => {
  const reserved = eventsDecidedBy(createOrder(), payOrder(), reserveRefund())

  it("decides nothing for the same request again, later, with another refundOrderNo, and keeps the first", () => {
    const again = reserveRefund({}, { now: at(200 * dayMs), refundOrderNo: "SVC-OTHER" })
    spec.given(reserved).when(again).thenNothing()
  })

  it("answers a repeat even after the refund failed and the order was revoked", () =>
    spec
      .given(
        eventsDecidedBy(createOrder(), payOrder(), reserveRefund(), release("SVC-REFUND-1"), {
          _tag: "RevokeOrder",
          merchantId,
          now: at(3 * hourMs),
          refundOrderNo: "SVC-REVOKE",
        }),
      )
      .when(reserveRefund())
      .thenNothing())

  it("refuses the same refundMerchantOrderNo with other parameters with 62017", () => {
    spec
      .given(reserved)
      .when(reserveRefund({ amountFils: fils(999) }))
      .thenRejects({ code: "REFUND_MERCHANT_ORDER_NO_EXIST" })
    spec
      .given(reserved)
      .when(reserveRefund({ reason: "damaged" }))
      .thenRejects({ code: "REFUND_MERCHANT_ORDER_NO_EXIST" })
  })

  it("refuses a refundOrderNo already used by another refund of the order (400)", () =>
    spec
      .given(reserved)
      .when(reserveRefund({ refundMerchantOrderNo: "REFUND-2" }, { refundOrderNo: "SVC-REFUND-1" }))
      .thenRejects({ code: "INVALID_PARAMETER" }))
})

describe("refund confirmation and release", () => {
  const reserved = eventsDecidedBy(createOrder(), payOrder(), reserveRefund())

  it("confirms a pending refund: it becomes refunded, and the remaining amount stays lowered", () =>
    spec
      .given(reserved)
      .when(confirm("SVC-REFUND-1"))
      .thenState((state) => {
        expect(state).toMatchObject({ refundedFils: 1_000, pendingRefundFils: 0, refunds: [{ status: "SUCCEEDED" }] })
        expect(summaryOf(state)?.remainRefundAmountFils).toBe(9_000)
      }))

  it("decides nothing when confirming or releasing twice", () => {
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), reserveRefund(), confirm("SVC-REFUND-1")))
      .when(confirm("SVC-REFUND-1"))
      .thenNothing()
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), reserveRefund(), release("SVC-REFUND-1")))
      .when(release("SVC-REFUND-1"))
      .thenNothing()
  })

  it("refuses to confirm a released refund with 62002 and to release a succeeded one with 62028", () => {
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), reserveRefund(), release("SVC-REFUND-1")))
      .when(confirm("SVC-REFUND-1"))
      .thenRejects({ code: "ORDER_FAILURE" })
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), reserveRefund(), confirm("SVC-REFUND-1")))
      .when(release("SVC-REFUND-1"))
      .thenRejects({ code: "ORDER_SUCCESS" })
  })

  it("refuses to confirm or release a refund the order does not have (400)", () => {
    spec.given(reserved).when(confirm("SVC-NONE")).thenRejects({ code: "INVALID_PARAMETER" })
    spec.given(reserved).when(release("SVC-NONE")).thenRejects({ code: "INVALID_PARAMETER" })
  })
})

describe("refund allocation over the payee, sharing and fee accounts", () => {
  // Paid 100.00 AED, 2.5% fee borne by the payee: payee 47.50, member 1 30.00, member 2 20.00, fee 2.50.
  const shared = eventsDecidedBy(
    createOrder({ sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 2_000)] }),
    payOrder(),
  )
  const allocationAfter = (events: ReadonlyArray<Event>, command: Command) => {
    let allocation: unknown
    spec
      .given(events)
      .when(command)
      .thenState((state) => {
        allocation = isOrder(state) ? state.refunds.at(-1)?.allocation : undefined
      })
    return allocation
  }
  const member = (seqId: number, amount: number, overrides: Partial<RefundSharingParam> = {}): RefundSharingParam => ({
    sharingIdentitySeqId: seqId,
    sharingIdentityType: "PHONE_NO",
    sharingIdentity: digest(seqId),
    sharingMemo: `back from ${seqId}`,
    sharingAmountFils: fils(amount),
    ...overrides,
  })

  it("takes a refund from the payee and the fee account in proportion by default", () =>
    expect(allocationAfter(shared, reserveRefund({ amountFils: fils(1_000) }))).toEqual({
      payeeFils: 950,
      feeFils: 50,
      sharing: [],
    }))

  it("refuses a default refund above what the payee and the fee account have left with 62006", () =>
    spec
      .given(shared)
      .when(reserveRefund({ amountFils: fils(5_001) }))
      .thenRejects({ code: "REFUND_AMOUNT_EXCEEDED", detail: expect.stringContaining("the AED 50.00 left in") }))

  it("takes a refund from every account in proportion with refundSharingAmount and no list", () =>
    expect(allocationAfter(shared, reserveRefund({ amountFils: fils(1_000), refundSharingAmount: true }))).toEqual({
      payeeFils: 475,
      feeFils: 25,
      sharing: [
        { sharingIdentitySeqId: 1, amountFils: 300 },
        { sharingIdentitySeqId: 2, amountFils: 200 },
      ],
    }))

  it("takes later proportional refunds from what each account has left, down to exactly zero", () => {
    const first = eventsDecidedBy(
      createOrder({ sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 2_000)] }),
      payOrder(),
      reserveRefund({ refundMerchantOrderNo: "R1", amountFils: fils(1_000), refundSharingAmount: true }),
    )
    expect(
      allocationAfter(
        first,
        reserveRefund({ refundMerchantOrderNo: "R2", amountFils: fils(9_000), refundSharingAmount: true }),
      ),
    ).toEqual({
      payeeFils: 4_275,
      feeFils: 225,
      sharing: [
        { sharingIdentitySeqId: 1, amountFils: 2_700 },
        { sharingIdentitySeqId: 2, amountFils: 1_800 },
      ],
    })
  })

  it("never takes from an account more than it has left: three refunds of 1 fils from three accounts of 1 fils", () => {
    const tiny = [
      createOrder({ totalAmountFils: fils(3), sharingParamList: [sharingItem(1, 1), sharingItem(2, 1)] }),
      payOrder({ paidAmountFils: fils(3), feePlan: noFees }),
    ]
    const refund = (n: number) =>
      reserveRefund({ refundMerchantOrderNo: `R${n}`, amountFils: fils(1), refundSharingAmount: true })
    expect(allocationAfter(eventsDecidedBy(...tiny), refund(1))).toMatchObject({ payeeFils: 1 })
    expect(allocationAfter(eventsDecidedBy(...tiny, refund(1)), refund(2))).toMatchObject({
      payeeFils: 0,
      sharing: [
        { sharingIdentitySeqId: 1, amountFils: 1 },
        { sharingIdentitySeqId: 2, amountFils: 0 },
      ],
    })
    expect(allocationAfter(eventsDecidedBy(...tiny, refund(1), refund(2)), refund(3))).toMatchObject({
      payeeFils: 0,
      sharing: [
        { sharingIdentitySeqId: 1, amountFils: 0 },
        { sharingIdentitySeqId: 2, amountFils: 1 },
      ],
    })
  })

  it("takes the listed amount from each listed member and the rest from the payee and the fee account", () =>
    expect(
      allocationAfter(
        shared,
        reserveRefund({ amountFils: fils(1_500), refundSharingAmount: true, sharingParamList: [member(1, 1_000)] }),
      ),
    ).toEqual({ payeeFils: 475, feeFils: 25, sharing: [{ sharingIdentitySeqId: 1, amountFils: 1_000 }] }))

  it("ignores the list when refundSharingAmount is false", () =>
    expect(
      allocationAfter(shared, reserveRefund({ amountFils: fils(1_000), sharingParamList: [member(1, 1_000)] })),
    ).toEqual({ payeeFils: 950, feeFils: 50, sharing: [] }))

  const listed = (...members: ReadonlyArray<RefundSharingParam>) =>
    reserveRefund({ amountFils: fils(1_500), refundSharingAmount: true, sharingParamList: members })

  it("refuses a listed member the order does not have with 62083", () =>
    spec
      .given(shared)
      .when(listed(member(3, 100)))
      .thenRejects({ code: "SHARING_MEMBER_NOT_EXIST" }))

  it("refuses a listed member whose identity does not match the order's with 62084", () => {
    spec
      .given(shared)
      .when(listed(member(1, 100, { sharingIdentity: digest(99) })))
      .thenRejects({ code: "REFUND_SHARING_MEMBER_MISMATCH" })
    spec
      .given(shared)
      .when(listed(member(1, 100, { sharingIdentityType: "MEMBER_ID" })))
      .thenRejects({ code: "REFUND_SHARING_MEMBER_MISMATCH" })
  })

  it("refuses a listed amount above what the member has left with 62006", () =>
    spec
      .given(shared)
      .when(listed(member(2, 2_001)))
      .thenRejects({ code: "REFUND_AMOUNT_EXCEEDED" }))

  it("takes a listed member giving back exactly what it has left (member 2 received AED 20.00)", () =>
    expect(
      allocationAfter(
        shared,
        reserveRefund({ amountFils: fils(2_000), refundSharingAmount: true, sharingParamList: [member(2, 2_000)] }),
      ),
    ).toEqual({ payeeFils: 0, feeFils: 0, sharing: [{ sharingIdentitySeqId: 2, amountFils: 2_000 }] }))

  it("takes a list whose amounts cover the whole refund, leaving nothing to the payee or the fee account", () =>
    expect(
      allocationAfter(
        shared,
        reserveRefund({
          amountFils: fils(1_500),
          refundSharingAmount: true,
          sharingParamList: [member(1, 1_000), member(2, 500)],
        }),
      ),
    ).toEqual({
      payeeFils: 0,
      feeFils: 0,
      sharing: [
        { sharingIdentitySeqId: 1, amountFils: 1_000 },
        { sharingIdentitySeqId: 2, amountFils: 500 },
      ],
    }))

  it("refuses a list whose amounts exceed the refund amount, or names a member twice (400)", () => {
    spec
      .given(shared)
      .when(listed(member(1, 1_000), member(2, 501)))
      .thenRejects({ code: "INVALID_PARAMETER" })
    spec
      .given(shared)
      .when(listed(member(1, 100), member(1, 100)))
      .thenRejects({ code: "INVALID_PARAMETER" })
  })

  it("refuses a list when the order withheld its fee from a sharing account, with 62045, and allows a proportional refund", () => {
    const withheld = eventsDecidedBy(createOrder({ sharingParamList: [sharingItem(1, 3_000, true)] }), payOrder())
    spec
      .given(withheld)
      .when(listed(member(1, 100)))
      .thenRejects({ code: "REFUND_REJECTED" })
    expect(allocationAfter(withheld, reserveRefund({ amountFils: fils(1_000), refundSharingAmount: true }))).toEqual({
      payeeFils: 700,
      feeFils: 25,
      sharing: [{ sharingIdentitySeqId: 1, amountFils: 275 }],
    })
  })
})
