import { formatCompactUtc, type Timestamp } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  decodeNotification,
  encodeNotificationOrder,
  isAcknowledgement,
  type NotificationOrderKey,
  notificationBody,
  notificationOrderKeys,
  notificationOrders,
  parseJson,
  WireEncodingError,
} from "../src/index.ts"
import {
  acquireOrderSample,
  refundOrderSample,
  transferBankCardOrderSample,
  transferOrderSample,
  transferToBankOrderSample,
  vamDepositOrderSample,
} from "./samples.ts"

const at = 1_700_000_123_456 as Timestamp

const wireOrders: Record<NotificationOrderKey, unknown> = {
  acquireOrder: acquireOrderSample,
  refundOrder: refundOrderSample,
  transferOrder: transferOrderSample,
  transferToBankOrder: transferToBankOrderSample,
  transferBankCardOrder: transferBankCardOrderSample,
  vamDepositOrder: vamDepositOrderSample,
}

const typedOrder = <K extends NotificationOrderKey>(key: K) =>
  Schema.decodeUnknownSync(notificationOrders[key] as Schema.Codec<unknown, unknown>)(wireOrders[key]) as never

/** A notification body of an order held as the service holds it (amounts in fils). */
const build = <K extends NotificationOrderKey>(notifyId: string, orderKey: K) =>
  notificationBody({ notifyId, orderKey, order: encodeNotificationOrder(orderKey, typedOrder(orderKey)) }, at)

describe("notification bodies", () => {
  it.each(notificationOrderKeys)("builds a %s notification that decodes back to the same order", (orderKey) => {
    const text = build("N-1", orderKey)
    const body = JSON.parse(text)
    expect(body).toMatchObject({
      notify_id: "N-1",
      notify_timestamp: at,
      notify_time: formatCompactUtc(at),
      _input_charset: "UTF-8",
    })
    expect(body[orderKey]).toEqual(wireOrders[orderKey])
    const notification = Result.getOrThrow(decodeNotification(Result.getOrThrow(parseJson(text))))
    expect(notification).toMatchObject({ notifyId: "N-1", notifyTimestamp: at, orderKey })
  })

  it("writes notify_time as yyyyMMddHHmmss in UTC", () => {
    const text = build("N", "vamDepositOrder")
    expect(JSON.parse(text).notify_time).toBe("20231114221523")
  })

  it("keeps amounts as JSON numbers in fils-exact form", () => {
    const text = build("N", "refundOrder")
    expect(text).toContain('"amount":{"amount":10.1,"currency":"AED"}')
    const notification = Result.getOrThrow(decodeNotification(Result.getOrThrow(parseJson(text))))
    expect(notification.orderKey === "refundOrder" && notification.order.amount).toBe(1010)
  })

  it("refuses to encode a notification's order that breaks its schema", () => {
    const order = { ...(typedOrder("transferOrder") as object), beneficiaryIdentity: "+971500000001" }
    expect(() => encodeNotificationOrder("transferOrder", order as never)).toThrow(WireEncodingError)
  })

  it("refuses a body with no order key, or with two", () => {
    const base = { notify_id: "N", notify_timestamp: at }
    expect(Result.isFailure(decodeNotification(base))).toBe(true)
    expect(
      Result.isFailure(
        decodeNotification({ ...base, refundOrder: refundOrderSample, acquireOrder: acquireOrderSample }),
      ),
    ).toBe(true)
  })

  it("names the broken field of a notification", () => {
    const result = decodeNotification({
      notify_timestamp: at,
      vamDepositOrder: { ...vamDepositOrderSample, status: "DONE" },
    })
    expect(Result.isFailure(result) && result.failure.message).toMatch(/notify_id is required.*vamDepositOrder\.status/)
  })
})

describe("merchant acknowledgements", () => {
  it.each([
    [200, '{"response":"SUCCESS"}'],
    [200, '{"response":"Success"}'],
    [200, '{"response":"success"}'],
    [200, ' { "response" : "SUCCESS" } \n'],
    [200, "SUCCESS"],
    [200, "success\n"],
    [204, "Success"],
    [299, "SUCCESS"],
  ])("counts HTTP %i with %j as delivered", (status, body) => {
    expect(isAcknowledgement(status, body)).toBe(true)
  })

  it.each([
    [500, '{"response":"SUCCESS"}'],
    [302, "SUCCESS"],
    [199, "SUCCESS"],
    [200, ""],
    [200, "OK"],
    [200, '{"response":"OK"}'],
    [200, '{"status":"SUCCESS"}'],
    [200, '"SUCCESS"'],
    [200, '["SUCCESS"]'],
    [200, '{"response":true}'],
    [200, "SUCCESSFUL"],
    [200, "<html>SUCCESS</html>"],
  ])("does not count HTTP %i with %j as delivered", (status, body) => {
    expect(isAcknowledgement(status, body)).toBe(false)
  })
})
