/**
 * Bank card transfer and its query over real HTTP (spec: 12. Bank card
 * transfer, 13. Get bank card transfer order), and the sandbox's card bank
 * paying, failing or declining the payout. M1 has the product (1% fee,
 * fee member M1-MID); M3 has not.
 */
import { BankCardTransfer, CardNumber } from "@mizan/card-transfer"
import { handleCommand } from "@mizan/eventsourcing"
import { fils, timestamp } from "@mizan/kernel"
import { sha256Hex } from "@mizan/protocol"
import { describe, expect, it } from "vitest"
import { ok, refused } from "./calls.ts"
import { newNumber, startGateway, type TestGateway, testConfig, testMerchant } from "./harness.ts"
import {
  describeOrderQuery,
  describeProductionKeepsOrderCreated,
  itReachesOnlyOwnOrders,
  type PlacedOrderKind,
} from "./placedOrderTests.ts"
import { suiteGateway } from "./suiteGateway.ts"
import { handMadeOrderNo, sandboxOk, sandboxRefused, storedText } from "./transferSupport.ts"

const gateway = suiteGateway(() => {
  const base = testConfig()
  return startGateway({
    config: { ...base, merchants: [...base.merchants, testMerchant("M3", { products: [] })] },
  })
})

const cardNumber = "4111111111111111"
const firstName = "Amal"
const lastName = "Saeed"
const companyName = "Falcon Trading LLC"
const nextYear = String(new Date().getUTCFullYear() + 1)

interface CardRequest {
  readonly merchantOrderNo: string
  readonly amount?: number | string
  /** Clear values of the encrypted fields, encrypted here (null leaves the field out). */
  readonly clear?: Readonly<Record<string, string | null>>
  readonly [field: string]: unknown
}

/** AED 200 to an individual's card, every card field encrypted with the service's key. */
const cardRequest = (gw: TestGateway, { amount = 200, clear = {}, ...fields }: CardRequest, partnerId = "M1") => {
  const client = gw.merchant(partnerId)
  const clearValues: Record<string, string | null> = {
    firstName,
    lastName,
    cardNumber,
    expiryYear: nextYear,
    expiryMonth: "06",
    ...clear,
  }
  const encrypted = Object.fromEntries(
    Object.entries(clearValues).flatMap(([key, value]) => (value === null ? [] : [[key, client.encryptField(value)]])),
  )
  return {
    accountHolderType: "INDIVIDUAL",
    memo: "Refund of deposit",
    ...encrypted,
    ...fields,
    amount: { amount, currency: "AED" },
  } as never
}

const place = (request: CardRequest, partnerId = "M1", gw = gateway) =>
  ok(gw.merchant(partnerId), "/transfer/placeTransferToBankCard", cardRequest(gw, request, partnerId))

const refusedPlace = (request: CardRequest, partnerId = "M1") =>
  refused(gateway.merchant(partnerId), "/transfer/placeTransferToBankCard", cardRequest(gateway, request, partnerId))

const get = (merchantOrderNo: string, partnerId = "M1") =>
  ok(gateway.merchant(partnerId), "/transfer/getTransferToBankCard", { merchantOrderNo })

const cardOrders: PlacedOrderKind = {
  numberPrefix: "c",
  queryPath: "/transfer/getTransferToBankCard",
  streamId: BankCardTransfer.streamId,
  place: async (merchantOrderNo, gw) => (await place({ merchantOrderNo }, "M1", gw)).transferToBankCard,
  get: async (merchantOrderNo) => (await get(merchantOrderNo)).transferToBankCard,
}

/** A corporate holder: companyName instead of the personal names. */
const corporate = (name: string) => ({
  accountHolderType: "CORPORATE",
  clear: { firstName: null, lastName: null, companyName: name },
})

describe("bank card transfer", () => {
  it("places a transfer to an individual's card as CREATED: digests of card and names, the merchant's fee", async () => {
    const no = newNumber("c")
    const { transferToBankCard } = await place({ merchantOrderNo: no })
    expect(transferToBankCard).toMatchObject({
      merchantOrderNo: no,
      status: "CREATED",
      product: "TRANSFER_TO_BANK_CARD",
      amount: 20_000,
      accountHolderType: "INDIVIDUAL",
      firstName: sha256Hex(firstName),
      lastName: sha256Hex(lastName),
      cardNumber: sha256Hex(cardNumber),
      expiryYear: nextYear,
      expiryMonth: "06",
      memo: "Refund of deposit",
      // 1% of AED 200.
      payerFeeAmount: 200,
      payerFeeMemberId: "M1-MID",
      partnerId: "M1",
    })
    expect(transferToBankCard.orderNo).toMatch(/^\d{14}5\d{11}$/)
    expect(transferToBankCard.paidTime).toBe(transferToBankCard.createdTime)
    expect(transferToBankCard.companyName).toBeUndefined()
  })

  it("places a transfer to a company's card under a valid legal name", async () => {
    const { transferToBankCard } = await place({ merchantOrderNo: newNumber("c"), ...corporate(companyName) })
    expect(transferToBankCard).toMatchObject({
      status: "CREATED",
      accountHolderType: "CORPORATE",
      companyName: sha256Hex(companyName),
    })
    expect(transferToBankCard.firstName).toBeUndefined()
  })

  it.each([
    ["one character", "X"],
    ["all digits", "123 456"],
    ["all punctuation", "-- & --"],
  ])("refuses a company name of %s with 400", async (_case, name) => {
    const refusal = await refusedPlace({ merchantOrderNo: newNumber("c"), ...corporate(name) })
    expect(refusal).toMatchObject({ code: "400" })
    expect(refusal.msg).toContain("bizContent.companyName")
  })

  it("answers 62026 to a merchant without the bank card transfer product", async () => {
    expect(await refusedPlace({ merchantOrderNo: newNumber("c") }, "M3")).toMatchObject({ code: "62026" })
  })

  it("answers a resubmission by the order's status (62029, 62028, 62002), recording nothing new", async () => {
    const client = gateway.merchant()
    const created = newNumber("c")
    await place({ merchantOrderNo: created })
    const eventsBefore = (await gateway.allEvents()).length
    expect(await refusedPlace({ merchantOrderNo: created })).toMatchObject({ code: "62029" })
    expect((await gateway.allEvents()).length).toBe(eventsBefore)

    const paid = newNumber("c")
    await place({ merchantOrderNo: paid })
    await sandboxOk(client, "completeBankCardTransfer", { merchantOrderNo: paid, bankReference: "CP-1" })
    expect(await refusedPlace({ merchantOrderNo: paid })).toMatchObject({ code: "62028" })

    for (const helper of ["failBankCardTransfer", "declineBankCardTransfer"]) {
      const failed = newNumber("c")
      await place({ merchantOrderNo: failed })
      await sandboxOk(client, helper, { merchantOrderNo: failed, failDes: "Card blocked" })
      expect(await refusedPlace({ merchantOrderNo: failed })).toMatchObject({ code: "62002" })
    }
  })

  it("heals a crash between placing the order and indexing it: the resubmission (62029) indexes and submits it", async () => {
    const no = newNumber("c")
    const orderNo = handMadeOrderNo("5")
    const now = timestamp(Date.now())
    // The first request placed the order, then the process died before the index was written.
    await gateway.run(
      handleCommand(BankCardTransfer.aggregate, BankCardTransfer.streamId("M1", no), {
        _tag: "PlaceBankCardTransfer",
        merchantId: "M1",
        orderNo,
        requestTime: now,
        now,
        request: {
          merchantOrderNo: no,
          accountHolderType: "INDIVIDUAL",
          firstName: sha256Hex(firstName),
          lastName: sha256Hex(lastName),
          amountFils: fils(20_000),
          memo: "Refund of deposit",
          expiryYear: nextYear,
          expiryMonth: "06",
        },
        cardNumber: new CardNumber(cardNumber, sha256Hex(cardNumber)),
        enabledProducts: [BankCardTransfer.bankCardTransferProduct],
        feePlan: { basisPoints: 100, fixedFils: fils(0) },
        payerFeeMemberId: "M1-MID",
      }),
    )
    expect(await refusedPlace({ merchantOrderNo: no })).toMatchObject({ code: "62029" })
    await sandboxOk(gateway.merchant(), "completeBankCardTransfer", { orderNo, bankReference: "CP-HEALED" })
    expect((await get(no)).transferToBankCard).toMatchObject({ orderNo, status: "SUCCESS" })
  })

  it("refuses the same merchantOrderNo with other parameters with 62016, whatever the status", async () => {
    const no = newNumber("c")
    await place({ merchantOrderNo: no })
    expect(await refusedPlace({ merchantOrderNo: no, amount: 201 })).toMatchObject({ code: "62016" })
    expect(await refusedPlace({ merchantOrderNo: no, clear: { cardNumber: "5500000000000004" } })).toMatchObject({
      code: "62016",
    })
  })

  describe("refuses bad input with 400 INVALID_PARAMETER naming the field", () => {
    const lastYear = String(new Date().getUTCFullYear() - 1)
    it.each([
      ["a card number of 11 digits", { clear: { cardNumber: "41111111111" } }, "bizContent.cardNumber"],
      ["a card number of 20 digits", { clear: { cardNumber: "41111111111111111111" } }, "bizContent.cardNumber"],
      ["a card number with letters", { clear: { cardNumber: "4111-1111-1111-1111" } }, "bizContent.cardNumber"],
      ["a clear card number", { cardNumber }, "bizContent.cardNumber"],
      [
        "a card number that does not decrypt",
        { cardNumber: Buffer.alloc(300, 3).toString("base64") },
        "bizContent.cardNumber",
      ],
      ["an expired card", { clear: { expiryYear: lastYear } }, "bizContent.expiryYear"],
      ["month 13", { clear: { expiryMonth: "13" } }, "bizContent.expiryMonth"],
      ["a year of 2 digits", { clear: { expiryYear: "29" } }, "bizContent.expiryYear"],
      ["an individual without a last name", { clear: { lastName: null } }, "bizContent.lastName"],
      ["a first name over 50 characters", { clear: { firstName: "F".repeat(51) } }, "bizContent.firstName"],
      ["a blank first name", { clear: { firstName: " " } }, "bizContent.firstName"],
      [
        "a corporate holder without a company name",
        { accountHolderType: "CORPORATE", clear: { firstName: null, lastName: null } },
        "bizContent.companyName",
      ],
      ["an unknown holder type", { accountHolderType: "TRUST" }, "bizContent.accountHolderType"],
      ["a memo over 50 characters", { memo: "m".repeat(51) }, "bizContent.memo"],
    ])("%s", async (_case, fields, field) => {
      const refusal = await refusedPlace({ merchantOrderNo: newNumber("c"), ...fields })
      expect(refusal).toMatchObject({ code: "400" })
      expect(refusal.msg).toContain(field)
    })

    it("without echoing the card number", async () => {
      const refusal = await refusedPlace({ merchantOrderNo: newNumber("c"), clear: { cardNumber: "41111111111" } })
      expect(refusal.msg).not.toContain("41111111111")
    })
  })

  it("never lets a clear card number or name reach the store", async () => {
    const cards = ["4000056655665556", "5555555555554444", "378282246310005"]
    for (const [i, card] of cards.entries())
      await place({
        merchantOrderNo: newNumber("c"),
        clear: { cardNumber: card, firstName: `Layla${i}`, lastName: `Haddad${i}`, middleName: `Noor${i}` },
      })
    await place({ merchantOrderNo: newNumber("c"), ...corporate("Oasis Dates Trading") })
    const stored = await storedText(gateway)
    for (const clear of [...cards, "Layla0", "Haddad1", "Noor2", "Oasis Dates Trading", cardNumber, companyName])
      expect(stored).not.toContain(clear)
    // Only the digests are there.
    expect(stored).toContain(sha256Hex(cards[0] ?? ""))
  })
})

describeOrderQuery("get bank card transfer", gateway, cardOrders)

describe("the sandbox's card bank", () => {
  type CardAnswer = { transferToBankCard: Record<string, unknown> }

  it("pays a transfer out: SUCCESS with the bank's reference", async () => {
    const no = newNumber("c")
    await place({ merchantOrderNo: no })
    await sandboxOk(gateway.merchant(), "completeBankCardTransfer", {
      merchantOrderNo: no,
      bankReference: "CP-9",
    })
    expect((await get(no)).transferToBankCard).toMatchObject({ status: "SUCCESS", bankReference: "CP-9" })
  })

  it("fails a transfer: FAILURE, and with the payout returned at once, refundedTime", async () => {
    const no = newNumber("c")
    const { transferToBankCard } = await place({ merchantOrderNo: no })
    const answer = await sandboxOk<CardAnswer>(gateway.merchant(), "failBankCardTransfer", {
      orderNo: transferToBankCard.orderNo,
      failDes: "Card network error",
      payoutReturned: true,
    })
    expect(answer.transferToBankCard).toMatchObject({ status: "FAILURE", failDes: "Card network error" })
    expect((await get(no)).transferToBankCard.refundedTime).toEqual(expect.any(Number))
  })

  it("declines a transfer: BANK_FAIL, without refundedTime until the payout is returned", async () => {
    const client = gateway.merchant()
    const no = newNumber("c")
    await place({ merchantOrderNo: no })
    await sandboxOk(client, "declineBankCardTransfer", { merchantOrderNo: no, failDes: "Do not honour" })
    const declined = (await get(no)).transferToBankCard
    expect(declined).toMatchObject({ status: "BANK_FAIL", failDes: "Do not honour" })
    expect(declined.refundedTime).toBeUndefined()
    await sandboxOk(client, "returnBankCardPayout", { merchantOrderNo: no })
    expect((await get(no)).transferToBankCard).toMatchObject({ status: "BANK_FAIL", refundedTime: expect.any(Number) })
  })

  it("returns only a failed payout: 62029 while CREATED, 62028 after SUCCESS", async () => {
    const client = gateway.merchant()
    const no = newNumber("c")
    await place({ merchantOrderNo: no })
    expect(await sandboxRefused(client, "returnBankCardPayout", { merchantOrderNo: no })).toMatchObject({
      code: "62029",
    })
    await sandboxOk(client, "completeBankCardTransfer", { merchantOrderNo: no, bankReference: "CP-10" })
    expect(await sandboxRefused(client, "returnBankCardPayout", { merchantOrderNo: no })).toMatchObject({
      code: "62028",
    })
    expect(
      await sandboxRefused(client, "declineBankCardTransfer", { merchantOrderNo: no, failDes: "late" }),
    ).toMatchObject({ code: "62028" })
  })

  itReachesOnlyOwnOrders(gateway, cardOrders, "completeBankCardTransfer", { bankReference: "X" })
})

describeProductionKeepsOrderCreated("in production, where no card bank is connected", cardOrders)
