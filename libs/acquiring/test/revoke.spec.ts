import { deciderSpec } from "@mizan/eventsourcing/testing"
import { dayMs, fils, hourMs } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import {
  aggregate as acquiringOrder,
  type Command,
  isOrder,
  type RevokeOrder,
  refundSummary,
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

const spec = deciderSpec(acquiringOrder)
const revoke = (now = at(hourMs)): RevokeOrder => ({
  _tag: "RevokeOrder",
  merchantId,
  now,
  refundOrderNo: "SVC-REVOKE-1",
})
const settle: Command = { _tag: "SettleOrder", merchantId, now: at(30 * 60_000) }
const shared = createOrder({ sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 2_000)] })

describe("revoke order", () => {
  it("closes an unpaid order: FAILURE, revoked stays false (nothing was paid)", () =>
    spec
      .given(eventsDecidedBy(createOrder()))
      .when(revoke())
      .thenState((state) =>
        expect(state).toMatchObject({ status: "FAILURE", revoked: false, failure: { failCode: "ORDER_REVOKED" } }),
      ))

  it("turns a paid, unsettled order into FAILURE with revoked true and reserves a full refund of every account", () =>
    spec
      .given(eventsDecidedBy(shared, payOrder()))
      .when(revoke())
      .thenState((state) => {
        expect(state).toMatchObject({
          status: "FAILURE",
          revoked: true,
          refunds: [
            {
              refundOrderNo: "SVC-REVOKE-1",
              cause: "REVOKE",
              status: "PENDING",
              request: { refundMerchantOrderNo: "ORDER-1", amountFils: 10_000, refundSharingAmount: true },
              allocation: {
                payeeFils: 4_750,
                feeFils: 250,
                sharing: [
                  { sharingIdentitySeqId: 1, amountFils: 3_000 },
                  { sharingIdentitySeqId: 2, amountFils: 2_000 },
                ],
              },
            },
          ],
        })
        expect(isOrder(state) && refundSummary(state)).toEqual({ acquireAmountFils: 10_000, remainRefundAmountFils: 0 })
      }))

  it("keeps a settled order SETTLED with revoked true and the refund reserved for a separate refund order", () =>
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), settle))
      .when(revoke())
      .thenState((state) =>
        expect(state).toMatchObject({
          status: "SETTLED",
          revoked: true,
          refunds: [{ cause: "REVOKE", request: { amountFils: 10_000 } }],
        }),
      ))

  it("refuses to revoke an order with a pending or succeeded refund with 62041", () => {
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), reserveRefund()))
      .when(revoke())
      .thenRejects({ code: "ACQUIRE_ORDER_REFUNDED" })
    spec
      .given(
        eventsDecidedBy(createOrder(), payOrder(), reserveRefund(), {
          _tag: "ConfirmRefund",
          merchantId,
          now: at(hourMs),
          refundOrderNo: "SVC-REFUND-1",
        }),
      )
      .when(revoke(at(2 * hourMs)))
      .thenRejects({ code: "ACQUIRE_ORDER_REFUNDED" })
  })

  it("revokes an order whose only refund failed, refunding the whole paid amount", () =>
    spec
      .given(
        eventsDecidedBy(createOrder(), payOrder(), reserveRefund({ amountFils: fils(4_000) }), {
          _tag: "ReleaseRefund",
          merchantId,
          now: at(hourMs),
          refundOrderNo: "SVC-REFUND-1",
          reason: "the refund order failed",
        }),
      )
      .when(revoke(at(2 * hourMs)))
      .thenState((state) => expect(state).toMatchObject({ revoked: true, pendingRefundFils: 10_000 })))

  it("decides nothing when revoking twice, paid or not", () => {
    spec.given(eventsDecidedBy(createOrder(), revoke())).when(revoke()).thenNothing()
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), revoke()))
      .when(revoke())
      .thenNothing()
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), settle, revoke()))
      .when(revoke(at(3 * hourMs)))
      .thenNothing()
  })

  it("decides nothing for an order already closed by expiry or cancel", () =>
    spec
      .given(eventsDecidedBy(createOrder(), { _tag: "ExpireOrder", merchantId, now: at(2 * hourMs) }))
      .when(revoke(at(3 * hourMs)))
      .thenNothing())

  it("refuses to revoke a paid order older than 180 days with 62046, since its refund would be refused", () =>
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), settle))
      .when(revoke(at(180 * dayMs + 1)))
      .thenRejects({ code: "REVOKE_REJECTED" }))

  it("refuses to settle a paid order revoked before settlement with 62002", () =>
    spec
      .given(eventsDecidedBy(createOrder(), payOrder(), revoke()))
      .when(settle)
      .thenRejects({ code: "ORDER_FAILURE" }))
})
