import { inspect } from "node:util"
import { fold } from "@mizan/eventsourcing"
import { deciderSpec } from "@mizan/eventsourcing/testing"
import { issueMessage } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  BankCardTransfer,
  CardNumber,
  CardPayoutBank,
  CardPayoutBankUnavailable,
  expiryMonthIndex,
  LegalNameShape,
  legalNameShape,
} from "../src/index.ts"
import {
  aisha,
  clearCard,
  declined,
  declinedEvent,
  edge,
  failed,
  failedEvent,
  now,
  outcome,
  paid,
  place,
  placedBy,
  refund,
  succeededEvent,
} from "./builders.ts"
import { sha256 } from "./support.ts"

const { aggregate, invariants } = BankCardTransfer
const spec = deciderSpec(aggregate)
const placed = placedBy(place())

const messageOf = (schema: Schema.Top & Schema.Decoder<unknown>, input: unknown) => {
  const result = Schema.decodeUnknownResult(schema)(input)
  return Result.isFailure(result) ? issueMessage(result.failure.issue) : "ok"
}

describe("what an existing order number answers", () => {
  const existing = "merchantOrderNo K-1 is order C0001"
  it("answers the same request by the order's status, naming the order", () => {
    spec
      .given([placed])
      .when(place())
      .thenRejects({ code: "ORDER_CREATED", detail: `${existing}, which is created and in progress` })
    spec
      .given([placed, succeededEvent])
      .when(place())
      .thenRejects({ code: "ORDER_SUCCESS", detail: `${existing}, which has succeeded` })
    for (const ended of [declinedEvent, failedEvent])
      spec
        .given([placed, ended])
        .when(place())
        .thenRejects({ code: "ORDER_FAILURE", detail: `${existing}, which has failed` })
  })

  it("answers other parameters with 62016, naming the number", () =>
    spec
      .given([placed])
      .when(place({ expiryMonth: "10" }))
      .thenRejects({
        code: "MERCHANT_ORDER_NO_EXIST",
        field: "merchantOrderNo",
        detail: "merchantOrderNo K-1 is already a bank card transfer with different parameters",
      }))
})

describe("the holder's names, by accountHolderType", () => {
  const individual = (names: Partial<BankCardTransfer.BankCardTransferRequest>) => {
    const { firstName: _, lastName: __, ...request } = place().request
    return { ...place(), request: { ...request, ...names } }
  }
  const refused = (command: BankCardTransfer.PlaceBankCardTransfer, detail: string) =>
    spec.given([]).when(command).thenRejects({ code: "INVALID_PARAMETER", detail })
  const about = (command: BankCardTransfer.PlaceBankCardTransfer, field: string) =>
    spec.given([]).when(command).thenRejects({ code: "INVALID_PARAMETER", field })
  const required = "firstName and lastName are required when accountHolderType is INDIVIDUAL"

  it("requires both a first and a last name of an INDIVIDUAL, and no companyName", () => {
    refused(individual({ lastName: sha256("X") }), required)
    refused(individual({ firstName: sha256("X") }), required)
    refused(individual({}), required)
    // The sentence names both; the first is the field it is about.
    about(individual({}), "firstName")
    refused(
      { ...place(), request: { ...place().request, companyName: sha256("ACME") } },
      "companyName is only for accountHolderType CORPORATE",
    )
  })

  it("requires a companyName of a CORPORATE holder and none of the personal names", () => {
    const corporate = edge({ companyName: "Emirates Trading LLC" })
    const { companyName: _, ...withoutName } = corporate.request
    refused({ ...corporate, request: withoutName }, "companyName is required when accountHolderType is CORPORATE")
    const personal = "firstName, lastName and middleName are only for accountHolderType INDIVIDUAL"
    for (const name of ["firstName", "lastName", "middleName"])
      refused({ ...corporate, request: { ...corporate.request, [name]: sha256("X") } }, personal)
    about({ ...corporate, request: { ...corporate.request, middleName: sha256("X") } }, "firstName")
    const { companyNameShape: __, ...unmeasured } = corporate
    refused(unmeasured, "the companyName's shape was not measured")
    refused(edge({ companyName: "123 456" }), "companyName must be a valid legal name, not all digits")
    about(edge({ companyName: "123 456" }), "companyName")
  })

  it("refuses a merchant without the product, saying so", () =>
    spec
      .given([])
      .when({ ...place(), enabledProducts: [] })
      .thenRejects({ code: "PRODUCT_IS_NOT_APPLIED", detail: "bank card transfers are not enabled for this merchant" }))

  it("says the card number's rule: 12 to 19 digits, numeric only", () =>
    spec.given([]).when(edge(aisha, "41111111111")).thenRejects({
      code: "INVALID_PARAMETER",
      field: "cardNumber",
      detail: "cardNumber must be 12 to 19 digits, numeric only",
    }))
})

describe("outcomes and refunds after the order ended", () => {
  it("takes the same outcome again as a repeat, and answers any other by the status", () => {
    spec.given([placed, succeededEvent]).when(outcome(paid)).thenNothing()
    spec.given([placed, declinedEvent]).when(outcome(declined)).thenNothing()
    spec.given([placed, failedEvent]).when(outcome(failed)).thenNothing()
    spec
      .given([placed, succeededEvent])
      .when(outcome({ ...paid, bankReference: "OTHER" }))
      .thenRejects({ code: "ORDER_SUCCESS" })
    spec.given([placed, declinedEvent]).when(outcome(failed)).thenRejects({ code: "ORDER_FAILURE" })
    spec.given([placed, failedEvent]).when(outcome(declined)).thenRejects({ code: "ORDER_FAILURE" })
  })

  it("refuses an outcome or a refund of an order this merchant does not have, saying so", () => {
    const noSuch = {
      code: "MERCHANT_ORDER_NO_NOT_EXIST" as const,
      detail: "merchantOrderNo names no bank card transfer of this merchant",
    }
    spec.given([]).when(outcome(paid)).thenRejects(noSuch)
    spec
      .given([placed])
      .when({ ...refund, merchantId: "M2" })
      .thenRejects(noSuch)
  })

  it("refunds only a failed payout: a CREATED or succeeded one answers with its status", () => {
    spec.given([placed]).when(refund).thenRejects({ code: "ORDER_CREATED" })
    spec.given([placed, succeededEvent]).when(refund).thenRejects({ code: "ORDER_SUCCESS" })
  })
})

describe("evolve refuses a history out of order", () => {
  it("throws on an outcome before the placement and on a refund of an order that did not fail, naming both", () => {
    expect(() => fold(aggregate, [succeededEvent])).toThrow(
      "BankCardTransferSucceeded on a bank card transfer in status ABSENT",
    )
    expect(() => fold(aggregate, [declinedEvent])).toThrow(
      "BankCardTransferDeclined on a bank card transfer in status ABSENT",
    )
    expect(() => fold(aggregate, [failedEvent])).toThrow(
      "BankCardTransferFailed on a bank card transfer in status ABSENT",
    )
    expect(() => fold(aggregate, [placed, { _tag: "BankCardTransferRefunded", refundedTime: now }])).toThrow(
      "BankCardTransferRefunded on a bank card transfer in status CREATED",
    )
  })

  it("records a refund of a declined payout as well as of a failed one", () => {
    for (const ended of [declinedEvent, failedEvent])
      expect(fold(aggregate, [placed, ended, { _tag: "BankCardTransferRefunded", refundedTime: now }])).toMatchObject({
        refundedTime: now,
      })
  })
})

describe("invariants name what a damaged order breaks", () => {
  const order = fold(aggregate, [placed]) as BankCardTransfer.BankCardTransferOrder
  const brokenBy = (changes: Record<string, unknown>) =>
    invariants({ ...order, ...changes } as BankCardTransfer.State).map((broken) => broken.rule)

  it("hold on what the decider records", () => expect(invariants(order)).toEqual([]))

  it("report each broken rule in its own words", () => {
    expect(brokenBy({ amountFils: 0, payerFeeFils: 100 })).toContain("the amount is above zero")
    expect(brokenBy({ firstName: undefined })).toEqual([
      "an INDIVIDUAL holder has a first and a last name and no companyName",
    ])
    expect(brokenBy({ lastName: undefined })).toEqual([
      "an INDIVIDUAL holder has a first and a last name and no companyName",
    ])
    expect(brokenBy({ companyName: sha256("ACME") })).toEqual([
      "an INDIVIDUAL holder has a first and a last name and no companyName",
    ])
    const corporate = {
      accountHolderType: "CORPORATE",
      firstName: undefined,
      lastName: undefined,
      companyName: sha256("A"),
    }
    expect(brokenBy(corporate)).toEqual([])
    const corporateBroken = "a CORPORATE holder has a companyName and no personal names"
    expect(brokenBy({ ...corporate, companyName: undefined })).toEqual([corporateBroken])
    expect(brokenBy({ ...corporate, firstName: sha256("X") })).toEqual([corporateBroken])
    expect(brokenBy({ ...corporate, lastName: sha256("X") })).toEqual([corporateBroken])
    expect(brokenBy({ cardLast4: "111" })).toEqual(["cardLast4 is 4 digits"])
    expect(brokenBy({ cardLast4: "11111" })).toEqual(["cardLast4 is 4 digits"])
    expect(brokenBy({ payerFeeFils: order.payerFeeFils + 1 })).toEqual([
      "payerFeeAmount is the fee plan applied to the amount",
    ])
    expect(brokenBy({ expiryYear: "2020" })).toEqual(["the card had not expired when the order was created"])
    expect(brokenBy({ expiryMonth: "13" })).toEqual(["the card had not expired when the order was created"])
  })

  it("report a refund of a failed or declined payout dated before the payment, and only that", () => {
    const before = order.paidTime - 1
    for (const status of ["FAILURE", "BANK_FAIL"])
      expect(brokenBy({ status, failDes: "x", refundedTime: before })).toEqual(["refundedTime is not before paidTime"])
    expect(brokenBy({ status: "FAILURE", failDes: "x", refundedTime: order.paidTime })).toEqual([])
    expect(brokenBy({ status: "SUCCESS", bankReference: "x", refundedTime: before })).toEqual([])
  })
})

describe("card transfer data", () => {
  it("reads every command and every payout outcome", () => {
    const commands: ReadonlyArray<BankCardTransfer.Command> = [
      place(),
      outcome(paid),
      outcome(declined),
      outcome(failed),
      refund,
    ]
    for (const command of commands) expect(Schema.decodeUnknownSync(BankCardTransfer.Command)(command)).toEqual(command)
  })

  it("takes only a CardNumber as the card number, saying what it expected", () =>
    expect(messageOf(BankCardTransfer.PlaceBankCardTransfer, { ...place(), cardNumber: clearCard })).toBe(
      "cardNumber must be a CardNumber",
    ))

  it("records the last 4 digits as exactly 4 digits", () =>
    expect(messageOf(Schema.toType(BankCardTransfer.BankCardTransferPlaced), { ...placed, cardLast4: "12345" })).toBe(
      "cardLast4 must be 4 digits",
    ))

  it("knows every shape of a legal name", () => {
    for (const shape of ["PLAUSIBLE", "EMPTY", "ONE_CHARACTER", "ALL_DIGITS", "ALL_PUNCTUATION", "NO_LETTERS"])
      expect(messageOf(LegalNameShape, shape)).toBe("ok")
  })

  it("calls a name with a letter after or before its punctuation plausible", () => {
    expect(legalNameShape("-a")).toBe("PLAUSIBLE")
    expect(legalNameShape("a-")).toBe("PLAUSIBLE")
  })

  it("reads an expiry as a month index only when both year and month are well formed", () => {
    expect(expiryMonthIndex("2026", "1")).toBe(2026 * 12)
    expect(expiryMonthIndex("2026", "12")).toBe(2026 * 12 + 11)
    for (const [year, month] of [
      ["20261", "1"],
      ["x2026", "1"],
      ["2026", "13"],
      ["26", "1"],
    ])
      expect(expiryMonthIndex(year as string, month as string)).toBeUndefined()
  })

  it("shows a card number to Node's inspect as its mask alone", () =>
    expect(inspect(new CardNumber(clearCard, sha256(clearCard)))).toBe("CardNumber(****1111)"))

  it("names the bank port and its outage", () => {
    expect(CardPayoutBank.key).toBe("@mizan/card-transfer/CardPayoutBank")
    expect(new CardPayoutBankUnavailable({ detail: "down" })._tag).toBe("CardPayoutBankUnavailable")
  })
})
