import { describe, expect, it } from "vitest"
import { aed, ok, placePaidOrder, refused, sandbox } from "./calls.ts"
import { newNumber, startGateway } from "./harness.ts"
import { suiteGateway } from "./suiteGateway.ts"

const gateway = suiteGateway()

/** A PAID_SUCCESS order of `amount` AED, with `extra` fields. */
const paidOrder = (amount = 100, extra: Record<string, unknown> = {}) => placePaidOrder(gateway, { amount, extra })

const refund = (
  origin: string,
  amount: number,
  refundMerchantOrderNo = newNumber("r"),
  extra: Record<string, unknown> = {},
) =>
  ok(gateway.merchant(), "/acquire2/refund/placeOrder", {
    refundMerchantOrderNo,
    originMerchantOrderNo: origin,
    amount: aed(amount),
    ...extra,
  } as never)

const refuseRefund = (origin: Record<string, string>, amount: number, refundMerchantOrderNo = newNumber("r")) =>
  refused(gateway.merchant(), "/acquire2/refund/placeOrder", {
    refundMerchantOrderNo,
    ...origin,
    amount: aed(amount),
  } as never)

describe("refund order", () => {
  it("refunds in parts and says what remains, until 62006 refuses more than remains", async () => {
    const origin = await paidOrder(100)
    const first = await refund(origin, 30)
    expect(first.refundOrder).toMatchObject({ status: "CREATED", amount: 3_000, originMerchantOrderNo: origin })
    expect(first.refundSummary).toEqual({ acquireAmount: 10_000, remainRefundAmount: 7_000 })
    expect((await refund(origin, 70)).refundSummary.remainRefundAmount).toBe(0)
    expect((await refuseRefund({ originMerchantOrderNo: origin }, 0.01)).code).toBe("62006")
  })

  it("names the amount bizContent.amount whichever check refuses it: the schema's rule or what the order has left", async () => {
    const origin = await paidOrder(10)
    expect((await refuseRefund({ originMerchantOrderNo: origin }, 0)).msg).toMatch(
      /^INVALID_PARAMETER: bizContent\.amount/,
    )
    expect(await refuseRefund({ originMerchantOrderNo: origin }, 10.01)).toMatchObject({
      code: "62006",
      msg: "REFUND_AMOUNT_EXCEEDED: bizContent.amount AED 10.01 is more than the refundable AED 10.00 (paid minus refunded minus pending)",
    })
  })

  it("answers a repeat with the same refund, and 62017 for the same number with other parameters", async () => {
    const origin = await paidOrder(50)
    const number = newNumber("r")
    const first = await refund(origin, 10, number)
    const again = await refund(origin, 10, number)
    expect(again.refundOrder.orderNo).toBe(first.refundOrder.orderNo)
    expect(again.refundSummary.remainRefundAmount).toBe(4_000)
    expect((await refuseRefund({ originMerchantOrderNo: origin }, 11, number)).code).toBe("62017")
    // The same number on another order is taken too, and leaves that order's balance whole.
    const other = await paidOrder(50)
    expect((await refuseRefund({ originMerchantOrderNo: other }, 10, number)).code).toBe("62017")
    expect((await refund(other, 50)).refundSummary.remainRefundAmount).toBe(0)
  })

  it("names the refund's number in 62017 by the field it was sent as: refundMerchantOrderNo or the sample's merchantOrderNo", async () => {
    const origin = await paidOrder(50)
    const number = newNumber("r")
    const underName = (key: string, amount: number, originMerchantOrderNo = origin) =>
      ({ [key]: number, originMerchantOrderNo, amount: aed(amount) }) as never
    const path = "/acquire2/refund/placeOrder"
    const first = await ok(gateway.merchant(), path, underName("merchantOrderNo", 10))
    // Which name the number came under is no parameter: the other name repeats the same refund.
    const again = await ok(gateway.merchant(), path, underName("refundMerchantOrderNo", 10))
    expect(again.refundOrder.orderNo).toBe(first.refundOrder.orderNo)
    const otherParameters = "is already used by a refund with other parameters"
    expect(await refused(gateway.merchant(), path, underName("merchantOrderNo", 11))).toMatchObject({
      code: "62017",
      msg: `REFUND_MERCHANT_ORDER_NO_EXIST: bizContent.merchantOrderNo ${otherParameters}`,
    })
    expect(await refused(gateway.merchant(), path, underName("refundMerchantOrderNo", 11))).toMatchObject({
      code: "62017",
      msg: `REFUND_MERCHANT_ORDER_NO_EXIST: bizContent.refundMerchantOrderNo ${otherParameters}`,
    })
    // The refund order refuses a number another order's refund holds, in the same words.
    const other = await paidOrder(50)
    expect(await refused(gateway.merchant(), path, underName("merchantOrderNo", 10, other))).toMatchObject({
      code: "62017",
      msg: `REFUND_MERCHANT_ORDER_NO_EXIST: bizContent.merchantOrderNo ${otherParameters}`,
    })
  })

  it("finds the origin by the service's orderNo, and answers 62035 / 62004 naming the origin field when it names nothing", async () => {
    const origin = await paidOrder(20)
    const { acquireOrder } = await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: origin })
    const byOrderNo = await ok(gateway.merchant(), "/acquire2/refund/placeOrder", {
      refundMerchantOrderNo: newNumber("r"),
      originOrderNo: acquireOrder.orderNo,
      amount: aed(5),
    } as never)
    expect(byOrderNo.refundOrder.originMerchantOrderNo).toBe(origin)
    // The merchant sent originOrderNo / originMerchantOrderNo: the message names those, not the order's own fields.
    expect(await refuseRefund({ originOrderNo: "20990101000000100000000000" }, 1)).toMatchObject({
      code: "62035",
      msg: "ORDER_NO_NOT_EXIST: bizContent.originOrderNo names no order of this merchant",
    })
    expect(await refuseRefund({ originMerchantOrderNo: "never-created" }, 1)).toMatchObject({
      code: "62004",
      msg: "MERCHANT_ORDER_NO_NOT_EXIST: bizContent.originMerchantOrderNo names no order of this merchant",
    })
  })

  it("answers 62015 for an unpaid order and 62002 for a failed one", async () => {
    const unpaid = newNumber("o")
    await ok(gateway.merchant(), "/acquire2/placeOrder", {
      merchantOrderNo: unpaid,
      subject: "x",
      totalAmount: aed(5),
      paySceneCode: "PAYPAGE",
    } as never)
    expect((await refuseRefund({ originMerchantOrderNo: unpaid }, 1)).code).toBe("62015")
    await ok(gateway.merchant(), "/acquire2/cancelOrder", { merchantOrderNo: unpaid })
    expect((await refuseRefund({ originMerchantOrderNo: unpaid }, 1)).code).toBe("62002")
  })

  it("answers 62038 when the refund names another sub-merchant than the order", async () => {
    const origin = await paidOrder(20, { secondaryMerchantId: "SUB-1", deviceId: "POS-1" })
    expect(
      (
        await refused(gateway.merchant(), "/acquire2/refund/placeOrder", {
          refundMerchantOrderNo: newNumber("r"),
          originMerchantOrderNo: origin,
          amount: aed(1),
          secondaryMerchantId: "SUB-2",
          deviceId: "POS-1",
        } as never)
      ).code,
    ).toBe("62038")
  })

  it("answers 62045 for an order created more than 180 days ago", async () => {
    const isolated = await startGateway()
    try {
      const merchantOrderNo = await placePaidOrder(isolated, { amount: 5 })
      await isolated.advanceClock(181 * 24 * 60)
      expect(
        (
          await refused(isolated.merchant(), "/acquire2/refund/placeOrder", {
            refundMerchantOrderNo: newNumber("r"),
            originMerchantOrderNo: merchantOrderNo,
            amount: aed(1),
          } as never)
        ).code,
      ).toBe("62045")
    } finally {
      await isolated.close()
    }
  })

  it("takes a proportional refund from payee, sharing account and fee, reporting feeRefunded", async () => {
    const client = gateway.merchant()
    const origin = await paidOrder(100, {
      sharingParamList: [
        {
          sharingIdentitySeqId: 1,
          sharingIdentityType: "MEMBER_ID",
          sharingIdentity: client.encryptField("PARTNER-1"),
          sharingMemo: "partner",
          sharingAmount: aed(40),
        },
      ],
    })
    const answer = await refund(origin, 50, newNumber("r"), { refundSharingAmount: true })
    const parts = (answer.refundOrder.sharingInfoList ?? []).reduce((sum, item) => sum + item.sharingSettledAmount, 0)
    expect(answer.refundOrder.feeRefunded).toBeGreaterThan(0)
    expect(parts).toBeGreaterThan(0)
    expect(parts + (answer.refundOrder.feeRefunded ?? 0)).toBeLessThanOrEqual(5_000)
  })
})

describe("refund lifecycle", () => {
  it("goes CREATED, REFUNDED_SETTLED, SUCCESS, readable by number or orderNo", async () => {
    const origin = await paidOrder(10)
    const number = newNumber("r")
    const placed = await refund(origin, 4, number)
    expect((await sandbox(gateway.merchant(), "settleRefund", { refundMerchantOrderNo: number })).head.code).toBe("0")
    expect(
      (await ok(gateway.merchant(), "/acquire2/refund/getOrder", { refundMerchantOrderNo: number })).refundOrder.status,
    ).toBe("REFUNDED_SETTLED")
    await sandbox(gateway.merchant(), "completeRefund", { refundMerchantOrderNo: number })
    const done = await ok(gateway.merchant(), "/acquire2/refund/getOrder", { orderNo: placed.refundOrder.orderNo })
    expect(done.refundOrder.status).toBe("SUCCESS")
    expect(done.refundSummary?.remainRefundAmount).toBe(600)
    expect(
      (await refused(gateway.merchant(), "/acquire2/refund/getOrder", { refundMerchantOrderNo: "missing" })).code,
    ).toBe("62004")
  })

  it("gives a failed refund's amount back to the refundable balance", async () => {
    const origin = await paidOrder(10)
    const number = newNumber("r")
    await refund(origin, 10, number)
    expect((await refuseRefund({ originMerchantOrderNo: origin }, 1)).code).toBe("62006")
    const failed = await sandbox(gateway.merchant(), "failRefund", {
      refundMerchantOrderNo: number,
      failDes: "account closed",
    })
    expect(failed.head.code).toBe("0")
    const after = await ok(gateway.merchant(), "/acquire2/refund/getOrder", { refundMerchantOrderNo: number })
    expect(after.refundOrder).toMatchObject({ status: "FAILURE", failDes: "account closed" })
    expect(after.refundSummary?.remainRefundAmount).toBe(1_000)
    expect((await refund(origin, 10)).refundSummary.remainRefundAmount).toBe(0)
  })

  it("never lets 64 concurrent refunds on one order exceed what was paid", async () => {
    const origin = await paidOrder(100)
    const results = await Promise.allSettled(Array.from({ length: 64 }, () => refund(origin, 7)))
    const accepted = results.filter((r) => r.status === "fulfilled").length
    expect(accepted).toBe(14) // 14 x 7 = 98 <= 100 < 15 x 7
    const { acquireOrder } = await ok(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: origin })
    expect(acquireOrder.status).toBe("PAID_SUCCESS")
    const remain = (await refund(origin, 2)).refundSummary.remainRefundAmount
    expect(remain).toBe(0)
  })
})
