/**
 * The codes of the spec's tables that need a particular setting to reach:
 * unregistered devices, a changed payer, old orders, sharing members, and
 * the store failing underneath (62039 for revoke, 500 elsewhere, never
 * leaking what failed).
 */
import { EventStore, makeMemoryEventStore, StoreError } from "@mizan/eventsourcing"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { aed, ok, placePaidOrder, refused, sandbox } from "./calls.ts"
import { newNumber, startGateway, testConfig, testMerchant } from "./harness.ts"
import { suiteGateway } from "./suiteGateway.ts"

const secret = "password=hunter2 at /var/lib/secret"

/** A memory store that fails where a test needs it to: the refund of a revoke, and any stream named BROKEN. */
const failingStore = Layer.sync(EventStore, () => {
  const inner = makeMemoryEventStore()
  const broken = () => Effect.fail(new StoreError({ reason: "Unavailable", detail: secret }))
  const isRevokeRefund = (streamId: string) => streamId.startsWith("refund-revoke-")
  return EventStore.of({
    ...inner,
    append: (streamId, events, expected) =>
      isRevokeRefund(streamId) ? broken() : inner.append(streamId, events, expected),
    // A refund order is created with its orderNo's index in one appendMany.
    appendMany: (parts) => (parts.some((part) => isRevokeRefund(part.streamId)) ? broken() : inner.appendMany(parts)),
    readStream: (streamId, options) => (streamId.includes("BROKEN") ? broken() : inner.readStream(streamId, options)),
  })
})

const gateway = suiteGateway(() =>
  startGateway({
    config: testConfig({ merchants: [testMerchant("M1", { devices: ["POS-1"] })] }),
    storeLayer: failingStore,
  }),
)

/** A PAID_SUCCESS order of AED 100, with `extra` fields. */
const paidOrder = (extra: Record<string, unknown> = {}) => placePaidOrder(gateway, { extra })

describe("codes that need a setting to reach", () => {
  it("answers 62036 for a refund naming a device the merchant has not registered", async () => {
    const origin = await paidOrder()
    const refund = (deviceId: string) => ({
      refundMerchantOrderNo: newNumber("c"),
      originMerchantOrderNo: origin,
      amount: aed(1),
      deviceId,
    })
    expect((await refused(gateway.merchant(), "/acquire2/refund/placeOrder", refund("POS-9") as never)).code).toBe(
      "62036",
    )
    expect(
      (await ok(gateway.merchant(), "/acquire2/refund/placeOrder", refund("POS-1") as never)).refundOrder.status,
    ).toBe("CREATED")
  })

  it("answers 601 RISK_FAIL when another payer pays an order whose changePayer is true", async () => {
    const merchantOrderNo = newNumber("c")
    await ok(gateway.merchant(), "/acquire2/placeOrder", {
      merchantOrderNo,
      subject: "Codes",
      totalAmount: aed(10),
      paySceneCode: "PAYPAGE",
      paySceneParams: { changePayer: "true" },
    } as never)
    await sandbox(gateway.merchant(), "failPayment", { merchantOrderNo, payerMid: "FIRST" })
    const other = await sandbox(gateway.merchant(), "payOrder", {
      merchantOrderNo,
      payerMid: "SECOND",
    })
    expect(other.head.code).toBe("601")
    const first = await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo, payerMid: "FIRST" })
    expect(first.head.code).toBe("0")
  })

  it("answers 62083 for a sharing member the order does not have, and 62084 for one that does not match", async () => {
    const client = gateway.merchant()
    const member = { sharingIdentitySeqId: 1, sharingIdentityType: "MEMBER_ID", sharingMemo: "partner" }
    const origin = await paidOrder({
      sharingParamList: [{ ...member, sharingIdentity: client.encryptField("PARTNER-1"), sharingAmount: aed(40) }],
    })
    const refundWith = (list: ReadonlyArray<Record<string, unknown>>) => ({
      refundMerchantOrderNo: newNumber("c"),
      originMerchantOrderNo: origin,
      amount: aed(10),
      refundSharingAmount: true,
      sharingParamList: list,
    })
    const unknown = {
      ...member,
      sharingIdentitySeqId: 2,
      sharingIdentity: client.encryptField("PARTNER-1"),
      sharingAmount: aed(5),
    }
    expect((await refused(client, "/acquire2/refund/placeOrder", refundWith([unknown]) as never)).code).toBe("62083")
    const mismatch = { ...member, sharingIdentity: client.encryptField("SOMEONE-ELSE"), sharingAmount: aed(5) }
    expect((await refused(client, "/acquire2/refund/placeOrder", refundWith([mismatch]) as never)).code).toBe("62084")
  })

  it("answers 62046 REVOKE_REJECTED for a paid order older than the 180-day refund window", async () => {
    const isolated = await startGateway()
    try {
      const merchantOrderNo = await placePaidOrder(isolated, { amount: 5 })
      await isolated.advanceClock(181 * 24 * 60)
      expect((await refused(isolated.merchant(), "/acquire2/revokeOrder", { merchantOrderNo })).code).toBe("62046")
    } finally {
      await isolated.close()
    }
  })

  it("answers 62039 REVOKE_FAILURE when the revoke's refund cannot be written, and the retry is safe", async () => {
    const origin = await paidOrder()
    const failure = await refused(gateway.merchant(), "/acquire2/revokeOrder", { merchantOrderNo: origin })
    expect(failure.code).toBe("62039")
    expect(failure.msg).not.toContain("hunter2")
  })

  it("answers 500 SYSTEM_ERROR with a traceCode when the store fails, and never says what failed", async () => {
    const failure = await refused(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: "BROKEN-1" })
    expect(failure.code).toBe("500")
    expect(failure.msg).toBe("SYSTEM_ERROR: retry later, quoting the traceCode")
    // Outside the envelope (docs/api.md#transport): a business refusal is HTTP 200, an unexpected failure 500.
    expect(failure.httpStatus).toBe(500)
    const business = await refused(gateway.merchant(), "/acquire2/getOrder", { merchantOrderNo: "NO-SUCH-ORDER" })
    expect([business.code, business.httpStatus]).toEqual(["62004", 200])
  })
})
