/**
 * Wallet transfer and its query over real HTTP (spec: 6. Wallet transfer,
 * "Wallet transfer order"; Limits), with the sandbox's member directory:
 * MEMBER-1 (971500000001, Amal Saeed, AED 1,000) and MEMBER-2
 * (971500000002, Omar Khan, AED 19,990).
 */
import { handleCommand } from "@mizan/eventsourcing"
import { fils, timestamp } from "@mizan/kernel"
import { findByOrderNo } from "@mizan/order-flows"
import { sha256Hex } from "@mizan/protocol"
import { WalletTransfer } from "@mizan/transfer"
import { placeWalletTransfer } from "@mizan/transfer/testing"
import { describe, expect, it } from "vitest"
import { ok, refused } from "./calls.ts"
import { newNumber, type TestGateway } from "./harness.ts"
import { suiteGateway } from "./suiteGateway.ts"
import {
  expectQueryAnswersOnlyOwnOrders,
  handMadeOrderNo,
  sandboxOk,
  startProductionGateway,
  storedText,
  streamLength,
} from "./transferSupport.ts"

const gateway = suiteGateway()

const member1Phone = "971500000001"
const member2Phone = "971500000002"

interface WalletRequest {
  readonly merchantOrderNo: string
  readonly beneficiaryIdentityType?: "PHONE_NO" | "MEMBER_ID"
  readonly beneficiaryIdentity?: string
  readonly beneficiaryFullName?: string
  readonly amount?: number | string
  readonly memo?: string
  readonly notifyUrl?: string
}

/** A transfer of AED 10 to MEMBER-1 by phone number, sent encrypted; fields overridable. */
const walletRequest = (gw: TestGateway, request: WalletRequest, partnerId = "M1") => {
  const { amount = 10, ...fields } = request
  return {
    beneficiaryIdentityType: "PHONE_NO" as const,
    beneficiaryIdentity: gw.merchant(partnerId).encryptField(member1Phone),
    memo: "Salary advance",
    ...fields,
    amount: { amount, currency: "AED" as const },
  }
}

const transfer = (request: WalletRequest, partnerId = "M1", gw = gateway) =>
  ok(gw.merchant(partnerId), "/transfer/placeTransferOrder", walletRequest(gw, request, partnerId) as never)

const refusedTransfer = (request: WalletRequest, partnerId = "M1") =>
  refused(
    gateway.merchant(partnerId),
    "/transfer/placeTransferOrder",
    walletRequest(gateway, request, partnerId) as never,
  )

describe("wallet transfer", () => {
  it("credits a member found by encrypted phone number: SUCCESS, the merchant's fee, digests only", async () => {
    const no = newNumber("w")
    const { transferOrder } = await transfer({ merchantOrderNo: no, amount: 12.5 })
    expect(transferOrder).toMatchObject({
      merchantOrderNo: no,
      status: "SUCCESS",
      product: "TRANSFER_TO_WALLET",
      amount: 1_250,
      beneficiaryIdentityType: "PHONE_NO",
      beneficiaryIdentity: sha256Hex(member1Phone),
      memo: "Salary advance",
      // The test merchant's wallet fee plan: a fixed AED 1.00.
      paymentInfo: { payerFeeAmount: 100 },
    })
    expect(transferOrder.orderNo).toMatch(/^\d{14}3\d{11}$/)
    expect(transferOrder.beneficiaryFullName).toBeUndefined()
    expect(transferOrder.failCode).toBeUndefined()
  })

  it("accepts the identity and full name as SHA-256 digests, and checks the name against the member's record", async () => {
    const no = newNumber("w")
    const { transferOrder } = await transfer({
      merchantOrderNo: no,
      beneficiaryIdentityType: "MEMBER_ID",
      beneficiaryIdentity: sha256Hex("MEMBER-1"),
      beneficiaryFullName: sha256Hex("Amal Saeed"),
    })
    expect(transferOrder).toMatchObject({
      status: "SUCCESS",
      beneficiaryIdentity: sha256Hex("MEMBER-1"),
      beneficiaryFullName: sha256Hex("Amal Saeed"),
    })
  })

  it("answers a repeat with the same order and its first orderNo, recording nothing new", async () => {
    const no = newNumber("w")
    const first = await transfer({ merchantOrderNo: no })
    const eventsBefore = (await gateway.allEvents()).length
    const again = await transfer({ merchantOrderNo: no })
    expect(again.transferOrder).toEqual(first.transferOrder)
    expect((await gateway.allEvents()).length).toBe(eventsBefore)
  })

  it("refuses the same merchantOrderNo with other parameters with 62016", async () => {
    const no = newNumber("w")
    await transfer({ merchantOrderNo: no })
    expect(await refusedTransfer({ merchantOrderNo: no, amount: 11 })).toMatchObject({ code: "62016" })
  })

  describe("fails the transfer, recorded as FAILURE with a failCode, when", () => {
    const failsWith = async (request: WalletRequest, failCode: string) => {
      const { transferOrder } = await transfer(request)
      expect(transferOrder).toMatchObject({ status: "FAILURE", failCode })
      expect(transferOrder.failDes).toEqual(expect.any(String))
      // Nothing moved: no fee and no arrival.
      expect(transferOrder.paymentInfo).toBeUndefined()
    }

    it("the amount is above AED 10,000", () =>
      failsWith({ merchantOrderNo: newNumber("w"), amount: "10000.01" }, "TRANSFER_AMOUNT_LIMIT_EXCEEDED"))

    it("no member has the identity", () =>
      failsWith(
        { merchantOrderNo: newNumber("w"), beneficiaryIdentity: gateway.merchant().encryptField("971599999999") },
        "BENEFICIARY_NOT_FOUND",
      ))

    it("the full name does not match the member's record", () =>
      failsWith(
        { merchantOrderNo: newNumber("w"), beneficiaryFullName: gateway.merchant().encryptField("Omar Khan") },
        "BENEFICIARY_NAME_MISMATCH",
      ))

    it("the member's balance plus the amount would pass AED 20,000", () =>
      failsWith(
        { merchantOrderNo: newNumber("w"), beneficiaryIdentity: sha256Hex(member2Phone), amount: "10.01" },
        "BENEFICIARY_BALANCE_LIMIT_EXCEEDED",
      ))
  })

  describe("during a sandbox outage of the member directory", () => {
    it("leaves the transfer CREATED, and the merchant's retry after the outage completes it once", async () => {
      const client = gateway.merchant()
      expect(await sandboxOk(client, "startMemberDirectoryOutage", undefined)).toEqual({
        memberDirectoryAvailable: false,
      })
      const no = newNumber("w")
      const created = await transfer({ merchantOrderNo: no })
      expect(created.transferOrder).toMatchObject({ status: "CREATED", paymentInfo: { payerFeeAmount: 100 } })
      expect((await ok(client, "/transfer/getTransferOrder", { merchantOrderNo: no })).transferOrder.status).toBe(
        "CREATED",
      )
      // Another merchant's transfers are not affected.
      expect((await transfer({ merchantOrderNo: newNumber("w") }, "M2")).transferOrder.status).toBe("SUCCESS")

      await sandboxOk(client, "endMemberDirectoryOutage", undefined)
      const retried = await transfer({ merchantOrderNo: no })
      expect(retried.transferOrder).toMatchObject({ status: "SUCCESS", orderNo: created.transferOrder.orderNo })
      const eventsBefore = (await gateway.allEvents()).length
      expect((await transfer({ merchantOrderNo: no })).transferOrder.status).toBe("SUCCESS")
      expect((await gateway.allEvents()).length).toBe(eventsBefore)
    })

    it("answers starting or ending it twice like once", async () => {
      const client = gateway.merchant("M2")
      await sandboxOk(client, "endMemberDirectoryOutage", undefined)
      await sandboxOk(client, "startMemberDirectoryOutage", undefined)
      await sandboxOk(client, "startMemberDirectoryOutage", undefined)
      expect(await sandboxOk(client, "endMemberDirectoryOutage", undefined)).toEqual({
        memberDirectoryAvailable: true,
      })
    })
  })

  describe("refuses bad input with 400 INVALID_PARAMETER naming the field", () => {
    it.each([
      ["a clear identity", { beneficiaryIdentity: member1Phone }, "bizContent.beneficiaryIdentity"],
      [
        "an identity that does not decrypt",
        { beneficiaryIdentity: Buffer.alloc(300, 7).toString("base64") },
        "bizContent.beneficiaryIdentity",
      ],
      [
        "an identity longer than 20 characters once decrypted",
        { beneficiaryIdentity: "encrypt:971500000001971500000001" },
        "bizContent.beneficiaryIdentity",
      ],
      ["an unknown identity type", { beneficiaryIdentityType: "EMAIL" }, "bizContent.beneficiaryIdentityType"],
      ["a zero amount", { amount: 0 }, "bizContent.amount"],
      ["an amount of three decimals", { amount: "1.005" }, "bizContent.amount"],
      ["an empty memo", { memo: "" }, "bizContent.memo"],
      [
        "a notifyUrl over 200 characters",
        { notifyUrl: `https://m.example/${"x".repeat(200)}` },
        "bizContent.notifyUrl",
      ],
    ])("%s", async (_case, fields, field) => {
      const request = Object.fromEntries(
        Object.entries(fields).map(([key, value]) =>
          typeof value === "string" && value.startsWith("encrypt:")
            ? [key, gateway.merchant().encryptField(value.slice("encrypt:".length))]
            : [key, value],
        ),
      )
      const refusal = await refusedTransfer({ merchantOrderNo: newNumber("w"), ...request } as WalletRequest)
      expect(refusal).toMatchObject({ code: "400" })
      expect(refusal.msg).toContain(field)
    })
  })

  it("never records the clear identity or full name", async () => {
    await transfer({
      merchantOrderNo: newNumber("w"),
      beneficiaryIdentityType: "MEMBER_ID",
      beneficiaryIdentity: gateway.merchant().encryptField("MEMBER-1"),
      beneficiaryFullName: gateway.merchant().encryptField("Amal Saeed"),
    })
    const stored = await storedText(gateway)
    for (const clear of ["MEMBER-1", member1Phone, "Amal Saeed"]) expect(stored).not.toContain(clear)
  })
})

describe("get wallet transfer", () => {
  it("answers the order as the transfer did", async () => {
    const no = newNumber("w")
    const { transferOrder } = await transfer({ merchantOrderNo: no, notifyUrl: "http://127.0.0.1:9/notify" })
    expect((await ok(gateway.merchant(), "/transfer/getTransferOrder", { merchantOrderNo: no })).transferOrder).toEqual(
      transferOrder,
    )
  })

  it("answers 62004 for a merchantOrderNo it never saw, and for another merchant's order", async () => {
    const no = newNumber("w")
    await transfer({ merchantOrderNo: no })
    await expectQueryAnswersOnlyOwnOrders(gateway, "/transfer/getTransferOrder", no)
  })
})

describe("in production, where no member directory is connected", () => {
  const production = suiteGateway(startProductionGateway)

  it("answers 504 SERVICE_TIMEOUT and records no order, so the merchant retries", async () => {
    const no = newNumber("w")
    const refusal = await refused(
      production.merchant(),
      "/transfer/placeTransferOrder",
      walletRequest(production, { merchantOrderNo: no }) as never,
    )
    expect(refusal).toMatchObject({ code: "504" })
    expect(await streamLength(production, WalletTransfer.streamId("M1", no))).toBe(0)
  })

  it("answers a retry with the order an earlier request placed, and indexes its orderNo should that request have been cut short", async () => {
    const no = newNumber("w")
    const orderNo = handMadeOrderNo("3")
    const streamId = WalletTransfer.streamId("M1", no)
    const now = timestamp(Date.now())
    // Placed while a directory answered, then the process died before the index was written.
    await production.run(
      handleCommand(
        WalletTransfer.aggregate,
        streamId,
        placeWalletTransfer({
          now,
          orderNo,
          beneficiaryIdentity: sha256Hex(member1Phone),
          beneficiary: { _tag: "MemberFound", fullName: sha256Hex("Amal Saeed"), balanceFils: fils(100_000) },
          request: { merchantOrderNo: no, amountFils: fils(1_000), memo: "Salary advance" },
        }),
      ),
    )
    const retried = await transfer({ merchantOrderNo: no }, "M1", production)
    expect(retried.transferOrder).toMatchObject({ orderNo, status: "CREATED" })
    expect(await production.run(findByOrderNo("M1", orderNo, "walletTransfer"))).toBe(streamId)
  })
})
