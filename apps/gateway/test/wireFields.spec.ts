/**
 * A domain lib's refusal names the domain's fields; the merchant reads the
 * fields it sent. One refusal per operation family, taken from the real
 * decider, in the domain's words and then as the pipeline answers it.
 */
import { AcquiringOrder } from "@mizan/acquiring"
import { createOrder, eventsDecidedBy, payOrder, reserveRefund, sharingItem } from "@mizan/acquiring/testing"
import { expiryProblem } from "@mizan/card-transfer"
import { fils, namesNoOrder, type Rejection, reject, type Sha256Hex, timestamp } from "@mizan/kernel"
import { type OperationPath, operations } from "@mizan/protocol"
import { BankTransfer, findAbility, WalletTransfer } from "@mizan/transfer"
import { payoutAbility, placeBankTransfer, placeWalletTransfer } from "@mizan/transfer/testing"
import { Result, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { fieldNamesOf, wireDetail } from "../src/pipeline/wireFields.ts"

const refusalOf = <Command, State, Event>(
  decide: (command: Command, state: State) => Result.Result<ReadonlyArray<Event>, Rejection>,
  command: Command,
  state: State,
): Rejection => {
  const decided = decide(command, state)
  if (Result.isSuccess(decided)) throw new Error("the decider took the command")
  return decided.failure
}

/** The domain's sentence, and the one the merchant reads from the operation at `path` for `request`. */
const bothSides = (rejection: Rejection, path: string, request: unknown = {}) => ({
  domain: rejection.detail,
  wire: wireDetail(rejection, fieldNamesOf(path, request)),
})

const acquiringStateOf = (...commands: ReadonlyArray<AcquiringOrder.Command>) =>
  eventsDecidedBy(...commands).reduce(AcquiringOrder.evolve, AcquiringOrder.initialState)
const paid = acquiringStateOf(createOrder(), payOrder())
const refundPath = "/acquire2/refund/placeOrder"
const digest = (n: number) => n.toString(16).padStart(64, "0") as Sha256Hex
const now = timestamp(Date.UTC(2026, 2, 1, 10))

describe("a domain refusal as the merchant reads it", () => {
  it("create order: the split items' amounts and the total by the names the request sent", () => {
    const tooMuch = createOrder({ sharingParamList: [sharingItem(1, 6_000), sharingItem(2, 4_001)] })
    expect(
      bothSides(refusalOf(AcquiringOrder.decide, tooMuch, AcquiringOrder.initialState), "/acquire2/placeOrder"),
    ).toEqual({
      domain: "sharingParamList sharingAmountFils values sum to AED 100.01, more than totalAmountFils (AED 100.00)",
      wire: "bizContent.sharingParamList sharingAmount values sum to AED 100.01, more than totalAmount (AED 100.00)",
    })
  })

  it("refund: amountFils is the body's amount", () => {
    const above = reserveRefund({ amountFils: fils(10_001) })
    expect(bothSides(refusalOf(AcquiringOrder.decide, above, paid), refundPath)).toEqual({
      domain: "amountFils AED 100.01 is more than the refundable AED 100.00 (paid minus refunded minus pending)",
      wire: "bizContent.amount AED 100.01 is more than the refundable AED 100.00 (paid minus refunded minus pending)",
    })
  })

  it("refund: the refund's own number as the merchant sent it, and the order refunded as its origin", () => {
    const refunded = acquiringStateOf(createOrder(), payOrder(), reserveRefund())
    const otherParameters = refusalOf(AcquiringOrder.decide, reserveRefund({ amountFils: fils(1) }), refunded)
    expect(otherParameters.field).toBe("refundMerchantOrderNo")
    const sentAs = (refundMerchantOrderNoSentAs: string) =>
      wireDetail(otherParameters, fieldNamesOf(refundPath, { refundMerchantOrderNoSentAs }))
    expect(sentAs("merchantOrderNo")).toBe(
      "bizContent.merchantOrderNo is already used by a refund with other parameters",
    )
    expect(sentAs("refundMerchantOrderNo")).toBe(
      "bizContent.refundMerchantOrderNo is already used by a refund with other parameters",
    )
    const noOrder = refusalOf(AcquiringOrder.decide, reserveRefund(), AcquiringOrder.initialState)
    expect(bothSides(noOrder, refundPath, { refundMerchantOrderNoSentAs: "refundMerchantOrderNo" })).toEqual({
      domain: "merchantOrderNo names no order of this merchant",
      wire: "bizContent.originMerchantOrderNo names no order of this merchant",
    })
    // The same refusal from get order names the field get order sent.
    expect(bothSides(noOrder, "/acquire2/getOrder").wire).toBe(
      "bizContent.merchantOrderNo names no order of this merchant",
    )
  })

  it("refund: a member's amount by its path, each name as the wire spells it", () => {
    const withSharing = acquiringStateOf(createOrder({ sharingParamList: [sharingItem(1, 3_000)] }), payOrder())
    const listing = reserveRefund({
      amountFils: fils(5_000),
      refundSharingAmount: true,
      sharingParamList: [sharingItem(1, 3_001)],
    })
    const refusal = refusalOf(AcquiringOrder.decide, listing, withSharing)
    expect(refusal.field).toBe("sharingParamList[0].sharingAmountFils")
    expect(bothSides(refusal, refundPath, { refundMerchantOrderNoSentAs: "refundMerchantOrderNo" }).wire).toMatch(
      /^bizContent\.sharingParamList\[0\]\.sharingAmount AED 30\.01 is more than sharing member 1 has left/,
    )
  })

  it("wallet transfer: the amount a decider's schema check refuses", () => {
    const zero = placeWalletTransfer({
      now,
      beneficiaryIdentity: digest(1),
      beneficiary: { _tag: "MemberNotFound" },
      request: { amountFils: fils(0) },
    })
    expect(
      bothSides(refusalOf(WalletTransfer.decide, zero, WalletTransfer.initialState), "/transfer/placeTransferOrder"),
    ).toEqual({ domain: "amountFils must be greater than 0", wire: "bizContent.amount must be greater than 0" })
  })

  it("bank transfer: a field the request names alike keeps its name, under bizContent", () => {
    const long = placeBankTransfer({
      now,
      holderName: digest(1),
      iban: digest(2),
      clearLengths: { holderNameChars: 100, beneficiaryAddressChars: 41 },
    })
    expect(
      bothSides(refusalOf(BankTransfer.decide, long, BankTransfer.initialState), "/transfer/placeTransferToBankOrder"),
    ).toEqual({
      domain: "holderName plus beneficiaryAddress must be at most 140 characters",
      wire: "bizContent.holderName plus beneficiaryAddress must be at most 140 characters",
    })
  })

  it("bank card transfer: the field the sentence is about, the other it names as it is", () => {
    const expired = expiryProblem("2026", "02", now)
    if (expired === undefined) throw new Error("a card of February 2026 has expired in March")
    expect(bothSides(expired, "/transfer/placeTransferToBankCard")).toEqual({
      domain: "expiryYear and expiryMonth must be the current month or later: the card has expired",
      wire: "bizContent.expiryYear and expiryMonth must be the current month or later: the card has expired",
    })
  })

  it("payout: a network and currency not enabled", () => {
    const ability = payoutAbility("LOCAL", "AED", { basisPoints: 0, fixedFils: fils(0) })
    const refused = findAbility([ability], { networkCode: "SWIFT", fundoutCurrencyCode: "USD" })
    if (Result.isSuccess(refused)) throw new Error("SWIFT / USD is not enabled")
    expect(bothSides(refused.failure, "/transfer/calculateFundout").wire).toBe(
      "bizContent.networkCode SWIFT with fundoutCurrencyCode USD is not enabled for this merchant",
    )
  })

  it("sandbox pay order: paidAmount against the order's totalAmount", () => {
    const created = acquiringStateOf(createOrder())
    const above = refusalOf(AcquiringOrder.decide, payOrder({ paidAmountFils: fils(10_001) }), created)
    expect(bothSides(above, "/payOrder")).toEqual({
      domain: "paidAmountFils must not be more than totalAmountFils",
      wire: "bizContent.paidAmount must not be more than totalAmount",
    })
  })
})

describe("what the mapping leaves alone", () => {
  it("says a refusal without a field as it is: the gateway's own already speak the wire", () => {
    const own = reject("INVALID_PARAMETER", "bizContent.payeeMid must be your own Partner-Id or absent")
    const state = reject("ORDER_NOT_PAID", "the order is not paid")
    expect(wireDetail(own, fieldNamesOf(refundPath, {}))).toBe(own.detail)
    expect(wireDetail(state, fieldNamesOf("/acquire2/placeOrder", {}))).toBe(state.detail)
  })

  it("renames only whole names: a name that merely starts like a renamed one stays", () => {
    const rejection = reject("INVALID_PARAMETER", "deviceId differs from merchantOrderNoSuffix", "deviceId")
    expect(wireDetail(rejection, fieldNamesOf(refundPath, {}))).toBe(
      "bizContent.deviceId differs from merchantOrderNoSuffix",
    )
  })

  it("answers an operation with no table, or a name on an object's prototype, by the domain's names", () => {
    expect(wireDetail(namesNoOrder("ORDER_NO_NOT_EXIST", "orderNo"), fieldNamesOf("/settleDeposit", {}))).toBe(
      "bizContent.orderNo names no order of this merchant",
    )
    expect(
      wireDetail(reject("INVALID_PARAMETER", "toString is no field", "toString"), fieldNamesOf(refundPath, {})),
    ).toBe("bizContent.toString is no field")
  })
})

/** Every key a wire schema's encoded side names, at any depth. */
const wireKeysOf = (ast: SchemaAST.AST, keys = new Set<string>()): Set<string> => {
  const encoded = SchemaAST.toEncoded(ast)
  switch (encoded._tag) {
    case "Objects":
      for (const property of encoded.propertySignatures) {
        keys.add(String(property.name))
        wireKeysOf(property.type, keys)
      }
      break
    case "Arrays":
      for (const element of [...encoded.elements, ...encoded.rest]) wireKeysOf(element, keys)
      break
    case "Union":
      for (const member of encoded.types) wireKeysOf(member, keys)
      break
    case "Suspend":
      wireKeysOf(encoded.thunk(), keys)
      break
  }
  return keys
}

describe("the tables", () => {
  it("name, for every merchant operation, only fields its request sends", () => {
    const refundRequest = { refundMerchantOrderNoSentAs: "merchantOrderNo" }
    for (const path of Object.keys(operations) as Array<OperationPath>) {
      const sent = wireKeysOf(operations[path].request.ast)
      for (const wireName of Object.values(fieldNamesOf(path, refundRequest)))
        expect(sent.has(wireName), `${path} sends ${wireName}`).toBe(true)
    }
  })
})
