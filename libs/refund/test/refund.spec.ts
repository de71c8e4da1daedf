import { deciderSpec } from "@mizan/eventsourcing/testing"
import { fils } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import { type Event, aggregate as refundOrder } from "../src/refundOrder.ts"
import { at, completeRefund, createRefund, details, failRefund, merchantId, settleRefund } from "./builders.ts"

const spec = deciderSpec(refundOrder)
const created: ReadonlyArray<Event> = [
  { _tag: "RefundCreated", merchantId, orderNo: "SVC-REFUND-1", details, createdAt: at(3_600_000) },
]
const settled: ReadonlyArray<Event> = [...created, { _tag: "RefundSettled", settledAt: at(7_200_000) }]
const succeeded: ReadonlyArray<Event> = [...settled, { _tag: "RefundSucceeded", succeededAt: at(7_200_000) }]
const failed: ReadonlyArray<Event> = [
  ...created,
  { _tag: "RefundFailed", failCode: "BANK_REJECTED", failDes: "the bank refused the refund", failedAt: at(7_200_000) },
]

describe("refund order: creation", () => {
  it("records what the acquiring order reserved: CREATED, with its allocation and feeRefunded", () =>
    spec
      .given([])
      .when(createRefund())
      .thenState((state) =>
        expect(state).toMatchObject({
          status: "CREATED",
          orderNo: "SVC-REFUND-1",
          details: {
            cause: "REQUEST",
            originMerchantOrderNo: "ORDER-1",
            originOrderNo: "SVC-ORDER-1",
            refundMerchantOrderNo: "REFUND-1",
            amountFils: 1_000,
            payeeRefundFils: 475,
            feeRefundedFils: 25,
            reason: "damaged",
            sharingInfoList: [
              {
                sharingIdentitySeqId: 1,
                sharingMemo: "share 1",
                sharingAmountFils: 300,
                sharingSettledAmountFils: 300,
              },
              {
                sharingIdentitySeqId: 2,
                sharingMemo: "share 2",
                sharingAmountFils: 200,
                sharingSettledAmountFils: 200,
              },
            ],
          },
        }),
      ))

  it("decides nothing for the same refund again, later, and keeps the first orderNo", () =>
    spec
      .given(created)
      .when({ ...createRefund({}, at(9_000_000)), orderNo: "SVC-OTHER" })
      .thenNothing())

  it("refuses the same refundMerchantOrderNo with other parameters with 62017", () => {
    spec
      .given(created)
      .when(createRefund({ originMerchantOrderNo: "ORDER-2" }))
      .thenRejects({ code: "REFUND_MERCHANT_ORDER_NO_EXIST" })
    spec
      .given(created)
      .when(createRefund({ reason: "late" }))
      .thenRejects({
        code: "REFUND_MERCHANT_ORDER_NO_EXIST",
        detail: "refundMerchantOrderNo is already used by a refund with other parameters",
      })
  })

  it("refuses parts that add up to more, or to less, than the amount (400): 10.00 is never recorded as 9.99", () => {
    for (const feeRefundedFils of [fils(26), fils(24)])
      spec
        .given([])
        .when(createRefund({ feeRefundedFils }))
        .thenRejects({ code: "INVALID_PARAMETER", detail: "the refund's parts do not sum to its amount" })
  })
})

describe("refund order: lifecycle CREATED, REFUNDED_SETTLED, SUCCESS, FAILURE", () => {
  it("settles a CREATED refund: REFUNDED_SETTLED", () =>
    spec
      .given(created)
      .when(settleRefund())
      .thenState((state) => expect(state).toMatchObject({ status: "REFUNDED_SETTLED", settledAt: at(7_200_000) })))

  it("completes a settled refund: SUCCESS", () =>
    spec
      .given(settled)
      .when(completeRefund())
      .thenEmits([{ _tag: "RefundSucceeded", succeededAt: at(7_200_000) }]))

  it("completes a CREATED refund by settling it first", () =>
    spec
      .given(created)
      .when(completeRefund())
      .thenEmits([
        { _tag: "RefundSettled", settledAt: at(7_200_000) },
        { _tag: "RefundSucceeded", succeededAt: at(7_200_000) },
      ]))

  it("fails a CREATED or settled refund: FAILURE with its failCode", () => {
    spec
      .given(created)
      .when(failRefund())
      .thenState((state) => expect(state).toMatchObject({ status: "FAILURE", failure: { failCode: "BANK_REJECTED" } }))
    spec
      .given(settled)
      .when(failRefund())
      .thenState((state) => expect(state).toMatchObject({ status: "FAILURE", settledAt: at(7_200_000) }))
  })

  it("decides nothing when a step is reported again", () => {
    spec.given(settled).when(settleRefund()).thenNothing()
    spec.given(succeeded).when(settleRefund()).thenNothing()
    spec.given(succeeded).when(completeRefund()).thenNothing()
    spec.given(failed).when(failRefund()).thenNothing()
  })

  it("decides nothing when the settlement of a refund that failed later is reported again", () =>
    spec
      .given([...settled, { _tag: "RefundFailed", failCode: "X", failDes: "x", failedAt: at(9_000_000) }])
      .when(settleRefund())
      .thenNothing())

  it("refuses to settle or complete a failed refund with 62002", () => {
    spec.given(failed).when(settleRefund()).thenRejects({ code: "ORDER_FAILURE", detail: "the refund failed" })
    spec.given(failed).when(completeRefund()).thenRejects({ code: "ORDER_FAILURE", detail: "the refund failed" })
  })

  it("refuses to fail a succeeded refund with 62028", () =>
    spec
      .given(succeeded)
      .when(failRefund())
      .thenRejects({ code: "ORDER_SUCCESS", detail: "the refund already succeeded; it cannot fail" }))

  it.each([settleRefund(), completeRefund(), failRefund()])(
    "refuses $_tag of a refund that does not exist with 62004",
    (command) =>
      spec.given([]).when(command).thenRejects({
        code: "MERCHANT_ORDER_NO_NOT_EXIST",
        detail: "refundMerchantOrderNo names no refund of this merchant",
      }),
  )

  it("refuses a command of another merchant with 62004", () =>
    spec
      .given(created)
      .when({ ...settleRefund(), merchantId: "M0002" })
      .thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }))
})
