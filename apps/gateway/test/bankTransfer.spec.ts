/**
 * Place and get bank transfer over real HTTP ("Bank transfer order", 11. Get
 * bank transfer order; the place operation's fields from the service's
 * documentation), and the sandbox's bank completing or failing it.
 */
import { handleCommand } from "@mizan/eventsourcing"
import { fils, timestamp } from "@mizan/kernel"
import { sha256Hex } from "@mizan/protocol"
import { BankTransfer, PayoutAbilities, unitRate } from "@mizan/transfer"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { ok, refused } from "./calls.ts"
import { newNumber, type TestGateway } from "./harness.ts"
import {
  describeOrderQuery,
  describeProductionKeepsOrderCreated,
  itReachesOnlyOwnOrders,
  type PlacedOrderKind,
} from "./placedOrderTests.ts"
import { suiteGateway } from "./suiteGateway.ts"
import { handMadeOrderNo, sandboxOk, sandboxRefused, storedText, streamLength } from "./transferSupport.ts"

const gateway = suiteGateway()

const holderName = "Amal Saeed"
const iban = "AE070331234567890123456"
const beneficiaryAddress = "Office 12, Al Quoz 3, Dubai"
const accountNo = "0331234567890123456"

interface BankRequest {
  readonly merchantOrderNo: string
  readonly amount?: number | string
  readonly [field: string]: unknown
}

/** AED 500 to Amal Saeed's IBAN over LOCAL, every sensitive field encrypted; clear fields overridable. */
const bankRequest = (gw: TestGateway, { amount = 500, ...fields }: BankRequest, partnerId = "M1") => {
  const client = gw.merchant(partnerId)
  return {
    holderName: client.encryptField(holderName),
    iban: client.encryptField(iban),
    memo: "Invoice 7",
    ...fields,
    amount: { amount, currency: "AED" },
  } as never
}

const place = (request: BankRequest, partnerId = "M1", gw = gateway) =>
  ok(gw.merchant(partnerId), "/transfer/placeTransferToBankOrder", bankRequest(gw, request, partnerId))

const refusedPlace = (request: BankRequest, partnerId = "M1") =>
  refused(gateway.merchant(partnerId), "/transfer/placeTransferToBankOrder", bankRequest(gateway, request, partnerId))

const get = (merchantOrderNo: string, partnerId = "M1") =>
  ok(gateway.merchant(partnerId), "/transfer/getTransferToBankOrder", { merchantOrderNo })

const bankOrders: PlacedOrderKind = {
  numberPrefix: "b",
  queryPath: "/transfer/getTransferToBankOrder",
  streamId: BankTransfer.streamId,
  place: async (merchantOrderNo, gw) => (await place({ merchantOrderNo }, "M1", gw)).transferToBankOrder,
  get: async (merchantOrderNo) => (await get(merchantOrderNo)).transferToBankOrder,
}

describe("place bank transfer", () => {
  it("places a LOCAL AED transfer as CREATED, with the defaults applied and only digests of the beneficiary", async () => {
    const no = newNumber("b")
    const sentAt = Date.now()
    const { transferToBankOrder } = await place({ merchantOrderNo: no })
    const answeredAt = Date.now()
    expect(transferToBankOrder).toMatchObject({
      merchantOrderNo: no,
      status: "CREATED",
      product: "TRANSFER_TO_BANK",
      amount: 50_000,
      holderName: sha256Hex(holderName),
      iban: sha256Hex(iban),
      memo: "Invoice 7",
      networkCode: "LOCAL",
      countryCode: "AE",
      fundoutCurrencyCode: "AED",
      beneficiaryType: "IBAN",
      fundoutAmount: { amountMinor: 50_000, currency: "AED" },
      rate: "1",
      paymentInfo: { payerFeeAmount: 0 },
    })
    expect(transferToBankOrder.orderNo).toMatch(/^\d{14}4\d{11}$/)
    expect(transferToBankOrder.bankReference).toBeUndefined()
    // As PayBy's documentation shows a CREATED transfer: the expected arrival, a number, here LOCAL's hour
    // after the placement (real time: the gateway places on its own clock, between these two readings).
    const arrivalTime = transferToBankOrder.paymentInfo?.arrivalTime
    expect(typeof arrivalTime).toBe("number")
    expect(arrivalTime).toBeGreaterThanOrEqual(sentAt + 3_600_000)
    expect(arrivalTime).toBeLessThanOrEqual(answeredAt + 3_600_000)
    expect((await get(no)).transferToBankOrder.paymentInfo?.arrivalTime).toBe(arrivalTime)
  })

  it("expects a SWIFT transfer two days after its placement, the default for that network", async () => {
    const sentAt = Date.now()
    const { transferToBankOrder } = await place({
      merchantOrderNo: newNumber("b"),
      networkCode: "SWIFT",
      fundoutCurrencyCode: "USD",
      countryCode: "US",
    })
    const answeredAt = Date.now()
    expect(transferToBankOrder.paymentInfo?.arrivalTime).toBeGreaterThanOrEqual(sentAt + 172_800_000)
    expect(transferToBankOrder.paymentInfo?.arrivalTime).toBeLessThanOrEqual(answeredAt + 172_800_000)
  })

  it("fixes rate, payout and fee of a SWIFT USD transfer at placement, and digests the optional sensitive fields", async () => {
    const client = gateway.merchant()
    const { transferToBankOrder } = await place({
      merchantOrderNo: newNumber("b"),
      amount: 1_000,
      networkCode: "SWIFT",
      fundoutCurrencyCode: "USD",
      countryCode: "US",
      swiftCode: "CHASUS33",
      fedwireCode: "021000021",
      bankName: "Chase",
      beneficiaryAddress: client.encryptField(beneficiaryAddress),
      accountNo: client.encryptField(accountNo),
      purposeCode: "SALA",
      cityCode: "NYC",
    })
    expect(transferToBankOrder).toMatchObject({
      status: "CREATED",
      networkCode: "SWIFT",
      fundoutCurrencyCode: "USD",
      countryCode: "US",
      fundoutAmount: { amountMinor: 27_220, currency: "USD" },
      rate: "0.2722",
      paymentInfo: { payerFeeAmount: 2_500 },
      swiftCode: "CHASUS33",
      fedwireCode: "021000021",
      bankName: "Chase",
      beneficiaryAddress: sha256Hex(beneficiaryAddress),
      accountNo: sha256Hex(accountNo),
      purposeCode: "SALA",
    })
  })

  it("digests the IBAN in its electronic format, whatever spacing and case it was sent in", async () => {
    const { transferToBankOrder } = await place({
      merchantOrderNo: newNumber("b"),
      iban: gateway.merchant().encryptField("ae07 0331 2345 6789 0123 456"),
    })
    expect(transferToBankOrder.iban).toBe(sha256Hex(iban))
  })

  it("answers a repeat with the same order, recording nothing new, also when a default is spelled out", async () => {
    const no = newNumber("b")
    const first = await place({ merchantOrderNo: no })
    const stream = BankTransfer.streamId("M1", no)
    const eventsBefore = (await gateway.allEvents()).length
    expect((await place({ merchantOrderNo: no })).transferToBankOrder).toEqual(first.transferToBankOrder)
    expect((await place({ merchantOrderNo: no, networkCode: "LOCAL" })).transferToBankOrder).toEqual(
      first.transferToBankOrder,
    )
    expect((await gateway.allEvents()).length).toBe(eventsBefore)
    expect(await streamLength(gateway, stream)).toBe(1)
  })

  it("answers concurrent identical requests with one order", async () => {
    const no = newNumber("b")
    const answers = await Promise.all(Array.from({ length: 8 }, () => place({ merchantOrderNo: no })))
    expect(new Set(answers.map((a) => a.transferToBankOrder.orderNo)).size).toBe(1)
    expect(await streamLength(gateway, BankTransfer.streamId("M1", no))).toBe(1)
  })

  it("heals a crash between placing the order and indexing its orderNo: the retry indexes the first orderNo", async () => {
    const no = newNumber("b")
    const orderNo = handMadeOrderNo("4")
    const now = timestamp(Date.now())
    // The first request placed the order, then the process died before the index was written.
    await gateway.run(
      Effect.gen(function* () {
        const abilities = yield* (yield* PayoutAbilities).abilitiesOf("M1")
        yield* handleCommand(BankTransfer.aggregate, BankTransfer.streamId("M1", no), {
          _tag: "PlaceBankTransfer",
          merchantId: "M1",
          orderNo,
          requestTime: now,
          now,
          request: {
            merchantOrderNo: no,
            amountFils: fils(50_000),
            holderName: sha256Hex(holderName),
            iban: sha256Hex(iban),
            memo: "Invoice 7",
          },
          clearLengths: { holderNameChars: holderName.length, beneficiaryAddressChars: 0 },
          abilities,
          rate: unitRate,
          arrivalDelayMinutes: 60,
        })
      }),
    )
    expect(await sandboxRefused(gateway.merchant(), "failBankTransfer", { orderNo, failDes: "x" })).toMatchObject({
      code: "62035",
    })
    expect((await place({ merchantOrderNo: no })).transferToBankOrder.orderNo).toBe(orderNo)
    await sandboxOk(gateway.merchant(), "completeBankTransfer", { orderNo, bankReference: "FT-HEALED" })
    expect((await get(no)).transferToBankOrder).toMatchObject({ status: "SUCCESS", bankReference: "FT-HEALED" })
  })

  it("refuses the same merchantOrderNo with other parameters with 62016", async () => {
    const no = newNumber("b")
    await place({ merchantOrderNo: no })
    expect(await refusedPlace({ merchantOrderNo: no, amount: 501 })).toMatchObject({ code: "62016" })
    expect(
      await refusedPlace({ merchantOrderNo: no, holderName: gateway.merchant().encryptField("Omar Khan") }),
    ).toMatchObject({ code: "62016" })
  })

  it("answers 62101 for an IBAN that is not one, without repeating it", async () => {
    const refusal = await refusedPlace({
      merchantOrderNo: newNumber("b"),
      iban: gateway.merchant().encryptField("AE070331234567890123457"),
    })
    expect(refusal).toMatchObject({ code: "62101" })
    expect(refusal.msg).not.toContain("AE07")
  })

  it("answers 62076 for a network and currency the merchant may not pay out in", async () => {
    expect(
      await refusedPlace({ merchantOrderNo: newNumber("b"), networkCode: "SWIFT", fundoutCurrencyCode: "EUR" }),
    ).toMatchObject({
      code: "62076",
      msg: "FUND_OUT_ABILITY_SUPPORTED: bizContent.networkCode SWIFT with fundoutCurrencyCode EUR is not enabled for this merchant",
    })
  })

  it.each([
    [
      "the network",
      { fundoutCurrencyCode: "USD" },
      "bizContent.networkCode was not sent and defaults to LOCAL, which with fundoutCurrencyCode USD is not enabled for this merchant",
    ],
    [
      "the currency",
      { networkCode: "SWIFT" },
      "bizContent.fundoutCurrencyCode was not sent and defaults to AED, which with networkCode SWIFT is not enabled for this merchant",
    ],
  ])(
    "answers 62076 saying %s was not sent and what it defaults to, where the default is what is refused",
    async (_, fields, detail) => {
      expect(await refusedPlace({ merchantOrderNo: newNumber("b"), ...fields })).toMatchObject({
        code: "62076",
        msg: `FUND_OUT_ABILITY_SUPPORTED: ${detail}`,
      })
    },
  )

  describe("refuses bad input with 400 INVALID_PARAMETER naming the field", () => {
    const notWholeBlocks = Buffer.alloc(300, 2).toString("base64")
    it.each([
      ["a holder name over 100 characters", { holderName: `encrypt:${"N".repeat(101)}` }, "bizContent.holderName"],
      ["a blank holder name", { holderName: "encrypt:  " }, "bizContent.holderName"],
      [
        "a holder name and address over 140 characters together",
        { holderName: `encrypt:${"N".repeat(70)}`, beneficiaryAddress: `encrypt:${"A".repeat(71)}` },
        "140",
      ],
      ["an IBAN that does not decrypt", { iban: notWholeBlocks }, "bizContent.iban"],
      ["an account number that does not decrypt", { accountNo: notWholeBlocks }, "bizContent.accountNo"],
      ["a clear IBAN", { iban }, "bizContent.iban"],
      ["a swiftCode that is not 8 to 11 letters and digits", { swiftCode: "CHAS-33" }, "bizContent.swiftCode"],
      ["a fedwireCode that is not 9 digits", { fedwireCode: "12345" }, "bizContent.fedwireCode"],
      ["a memo over 128 characters", { memo: "m".repeat(129) }, "bizContent.memo"],
      ["a missing memo", { memo: undefined }, "bizContent.memo"],
      ["a zero amount", { amount: 0 }, "bizContent.amount"],
    ])("%s", async (_case, fields, expected) => {
      const client = gateway.merchant()
      const request = Object.fromEntries(
        Object.entries(fields).map(([key, value]) =>
          typeof value === "string" && value.startsWith("encrypt:")
            ? [key, client.encryptField(value.slice("encrypt:".length))]
            : [key, value],
        ),
      )
      const refusal = await refusedPlace({ merchantOrderNo: newNumber("b"), ...request })
      expect(refusal).toMatchObject({ code: "400" })
      expect(refusal.msg).toContain(expected)
    })
  })

  it("never records the holder name, IBAN, address or account number in clear", async () => {
    const client = gateway.merchant()
    await place({
      merchantOrderNo: newNumber("b"),
      beneficiaryAddress: client.encryptField(beneficiaryAddress),
      accountNo: client.encryptField(accountNo),
    })
    const stored = await storedText(gateway)
    for (const clear of [holderName, iban, beneficiaryAddress, accountNo]) expect(stored).not.toContain(clear)
  })
})

describeOrderQuery("get bank transfer", gateway, bankOrders)

describe("the sandbox's bank", () => {
  it("completes a transfer: SUCCESS with the bank's reference, its arrival time in place of the estimate", async () => {
    const no = newNumber("b")
    const estimate = (await place({ merchantOrderNo: no })).transferToBankOrder.paymentInfo?.arrivalTime
    // A minute after now: well before the estimate, an hour after the placement.
    const arrivalTime = Date.now() + 60_000
    expect(estimate).toBeGreaterThan(arrivalTime)
    const { transferToBankOrder } = await sandboxOk<{ transferToBankOrder: Record<string, unknown> }>(
      gateway.merchant(),
      "completeBankTransfer",
      { merchantOrderNo: no, bankReference: "FT-0001", arrivalTime },
    )
    expect(transferToBankOrder).toMatchObject({ status: "SUCCESS", bankReference: "FT-0001" })
    expect((await get(no)).transferToBankOrder).toMatchObject({
      status: "SUCCESS",
      bankReference: "FT-0001",
      paymentInfo: { payerFeeAmount: 0, arrivalTime },
    })
  })

  it("fails a transfer named by the service's orderNo: FAILURE with the reason", async () => {
    const no = newNumber("b")
    const { transferToBankOrder } = await place({ merchantOrderNo: no })
    await sandboxOk(gateway.merchant(), "failBankTransfer", {
      orderNo: transferToBankOrder.orderNo,
      failDes: "Beneficiary account closed",
    })
    expect((await get(no)).transferToBankOrder).toMatchObject({
      status: "FAILURE",
      failDes: "Beneficiary account closed",
    })
  })

  it("keeps a terminal status final: 62028 after SUCCESS, 62002 after FAILURE", async () => {
    const client = gateway.merchant()
    const succeeded = newNumber("b")
    await place({ merchantOrderNo: succeeded })
    await sandboxOk(client, "completeBankTransfer", { merchantOrderNo: succeeded, bankReference: "FT-1" })
    expect(
      await sandboxRefused(client, "failBankTransfer", { merchantOrderNo: succeeded, failDes: "late" }),
    ).toMatchObject({ code: "62028" })
    const failed = newNumber("b")
    await place({ merchantOrderNo: failed })
    await sandboxOk(client, "failBankTransfer", { merchantOrderNo: failed, failDes: "closed" })
    expect(
      await sandboxRefused(client, "completeBankTransfer", { merchantOrderNo: failed, bankReference: "FT-2" }),
    ).toMatchObject({ code: "62002" })
  })

  itReachesOnlyOwnOrders(gateway, bankOrders, "completeBankTransfer", { bankReference: "FT-3" })

  it("refuses a request naming the order both ways, or neither, with 400", async () => {
    expect(
      await sandboxRefused(gateway.merchant(), "failBankTransfer", {
        merchantOrderNo: "a",
        orderNo: "b",
        failDes: "x",
      }),
    ).toMatchObject({ code: "400" })
    expect(await sandboxRefused(gateway.merchant(), "failBankTransfer", { failDes: "x" })).toMatchObject({
      code: "400",
    })
  })
})

describeProductionKeepsOrderCreated("in production, where no bank is connected", bankOrders)
