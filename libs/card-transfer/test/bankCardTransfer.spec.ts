import { test } from "@fast-check/vitest"
import { deciderSpec } from "@mizan/eventsourcing/testing"
import { fils, forgotten } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BankCardTransfer, type LegalNameShape } from "../src/index.ts"
import {
  aisha,
  clearCard,
  declined,
  declinedEvent,
  edge,
  failed,
  failedEvent,
  fee,
  now,
  outcome,
  paid,
  place,
  placedBy,
  refund,
  refunded,
  succeededEvent,
} from "./builders.ts"
import { runCommands, sha256 } from "./support.ts"

const { aggregate, invariants, rules } = BankCardTransfer
const spec = deciderSpec(aggregate)

describe("placing a bank card transfer", () => {
  it("records the order CREATED with digests, the last 4 digits, the fee and its payer, deducted now", () =>
    spec
      .given([])
      .when(place())
      .thenEmits([
        {
          _tag: "BankCardTransferPlaced",
          merchantId: "M1",
          orderNo: "C0001",
          requestTime: now,
          createdTime: now,
          product: "TRANSFER_TO_BANK_CARD",
          merchantOrderNo: "K-1",
          accountHolderType: "INDIVIDUAL",
          firstName: sha256("AISHA"),
          lastName: sha256("AL MANSOURI"),
          amount: fils(50_000),
          expiryYear: "2028",
          expiryMonth: "09",
          cardNumber: sha256(clearCard),
          cardLast4: "1111",
          // 1.5% of 500.00 plus 1.00 AED.
          payerFeeAmount: fils(850),
          feePlan: fee,
          payerFeeMemberId: "100000000099",
          paidTime: now,
        },
      ]))

  it("takes an optional middle name for an INDIVIDUAL", () =>
    spec
      .given([])
      .when(edge({ ...aisha, middleName: "FATIMA" }))
      .thenState((state) => expect(state).toMatchObject({ middleName: sha256("FATIMA") })))

  it("places a CORPORATE transfer with a plausible legal name", () =>
    spec
      .given([])
      .when(edge({ companyName: "Emirates Trading LLC" }))
      .thenState((state) =>
        expect(state).toMatchObject({ status: "CREATED", companyName: sha256("Emirates Trading LLC") }),
      ))

  it("refuses a merchant without the product with 62026 PRODUCT_IS_NOT_APPLIED", () =>
    spec
      .given([])
      .when({ ...place(), enabledProducts: ["TRANSFER_TO_BANK"] })
      .thenRejects({ code: "PRODUCT_IS_NOT_APPLIED" }))

  it.each([
    [
      "an INDIVIDUAL without a last name",
      () => ({ ...place(), request: { ...place().request, lastName: undefined as never } }),
    ],
    ["an INDIVIDUAL with a companyName", () => place({ companyName: sha256("X LLC") })],
    [
      "a CORPORATE without a companyName",
      () => ({
        ...edge({ companyName: "ACME" }),
        request: { ...place().request, accountHolderType: "CORPORATE" as const },
      }),
    ],
    ["a CORPORATE with personal names", () => edge({ companyName: "ACME" }, clearCard, { firstName: sha256("A") })],
    ["a card number of 11 digits", () => edge(aisha, "41111111111")],
    ["a card number of 20 digits", () => edge(aisha, "41111111111111111111")],
    ["a card number with spaces", () => edge(aisha, "4111 1111 1111 1111")],
    ["an expiry month of 13", () => place({ expiryMonth: "13" })],
    ["an expiry month of 0", () => place({ expiryMonth: "0" })],
    ["an expired card", () => place({ expiryYear: "2026", expiryMonth: "2" })],
    ["a two-digit expiry year", () => place({ expiryYear: "28" })],
    ["a memo above 50 characters", () => place({ memo: "m".repeat(51) })],
    ["a zero amount", () => place({ amount: fils(0) })],
    ["a clear first name", () => place({ firstName: "AISHA" as never })],
  ])("refuses %s with 400 INVALID_PARAMETER", (_, command) =>
    spec.given([]).when(command()).thenRejects({ code: "INVALID_PARAMETER" }),
  )

  it.each<[string, LegalNameShape]>([
    ["X", "ONE_CHARACTER"],
    ["123456", "ALL_DIGITS"],
    ["--.--", "ALL_PUNCTUATION"],
    ["12-34", "NO_LETTERS"],
  ])("refuses the company name %j (%s) with 400", (companyName, shape) => {
    const decided = aggregate.decide(edge({ companyName }), aggregate.initialState)
    expect(Result.isFailure(decided) && decided.failure.code).toBe("INVALID_PARAMETER")
    expect(Result.isFailure(decided) && decided.failure.detail).toContain(shape.toLowerCase().replaceAll("_", " "))
  })

  it("refuses a CORPORATE transfer whose company name was never measured", () =>
    spec
      .given([])
      .when((({ companyNameShape, ...command }) => command)(edge({ companyName: "ACME" })))
      .thenRejects({ code: "INVALID_PARAMETER" }))

  it("accepts 12 and 19 digits and a card expiring this month", () => {
    spec
      .given([])
      .when(edge(aisha, "411111111111"))
      .thenState((s) => expect(s.status).toBe("CREATED"))
    spec
      .given([])
      .when(edge(aisha, "4111111111111111111"))
      .thenState((s) => expect(s.status).toBe("CREATED"))
    spec
      .given([])
      .when(place({ expiryYear: "2026", expiryMonth: "3" }))
      .thenState((s) => expect(s.status).toBe("CREATED"))
  })

  it("never writes the clear card number or a clear name into a refusal", () => {
    const decided = aggregate.decide(edge(aisha, "4111 1111 1111 1111"), aggregate.initialState)
    expect(Result.isFailure(decided) && decided.failure.detail).not.toContain("4111")
  })
})

describe("repeating a bank card transfer", () => {
  const created = [placedBy(place())]

  it("refuses different parameters with 62016, whatever the status", () => {
    spec
      .given(created)
      .when(place({ amount: fils(50_001) }))
      .thenRejects({ code: "MERCHANT_ORDER_NO_EXIST" })
    spec
      .given([...created, succeededEvent])
      .when(edge(aisha, "4111111111111112"))
      .thenRejects({ code: "MERCHANT_ORDER_NO_EXIST" })
  })

  // Identical parameters: the order's status answers (62029 / 62028 / 62002), not 62016 and not a new order.
  it("answers identical parameters on a CREATED order with 62029 ORDER_CREATED", () =>
    spec
      .given(created)
      .when({ ...place(), orderNo: "C0002" })
      .thenRejects({ code: "ORDER_CREATED" }))

  it("answers identical parameters on a SUCCESS order with 62028 ORDER_SUCCESS", () =>
    spec
      .given([...created, succeededEvent])
      .when(place())
      .thenRejects({ code: "ORDER_SUCCESS" }))

  it("answers identical parameters on a FAILURE or BANK_FAIL order with 62002 ORDER_FAILURE", () => {
    spec
      .given([...created, failedEvent])
      .when(place())
      .thenRejects({ code: "ORDER_FAILURE" })
    spec
      .given([...created, declinedEvent])
      .when(place())
      .thenRejects({ code: "ORDER_FAILURE" })
  })

  it("checks a repeat before the product, so a merchant whose product was withdrawn still learns its order exists", () =>
    spec
      .given(created)
      .when({ ...place(), enabledProducts: [] })
      .thenRejects({ code: "ORDER_CREATED" }))
})

describe("the bank's outcome and the refund of a failed payout", () => {
  const created = [placedBy(place({ notifyUrl: "https://merchant.example/card" }))]

  it("moves a paid payout to SUCCESS with the bank's reference", () =>
    spec.given(created).when(outcome(paid)).thenEmits([succeededEvent]))

  it("moves a payout the bank declined to BANK_FAIL", () =>
    spec.given(created).when(outcome(declined)).thenEmits([declinedEvent]))

  it("moves a payout that failed otherwise to FAILURE", () =>
    spec.given(created).when(outcome(failed)).thenEmits([failedEvent]))

  it("refuses an outcome for an order that does not exist with 62004", () =>
    spec.given([]).when(outcome(paid)).thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }))

  it("refuses an outcome or refund for another merchant's order with 62004", () => {
    spec
      .given(created)
      .when({ ...outcome(paid), merchantId: "M2" })
      .thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" })
    spec
      .given([...created, failedEvent])
      .when({ ...refund, merchantId: "M2" })
      .thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" })
  })

  it("answers the same outcome again with nothing new", () =>
    spec
      .given([...created, declinedEvent])
      .when(outcome(declined))
      .thenNothing())

  it("keeps terminal statuses final: 62028 after SUCCESS, 62002 after BANK_FAIL or FAILURE", () => {
    spec
      .given([...created, succeededEvent])
      .when(outcome(declined))
      .thenRejects({ code: "ORDER_SUCCESS" })
    spec
      .given([...created, declinedEvent])
      .when(outcome(paid))
      .thenRejects({ code: "ORDER_FAILURE" })
    spec
      .given([...created, failedEvent])
      .when(outcome(declined))
      .thenRejects({ code: "ORDER_FAILURE" })
  })

  it("records refundedTime when a failed payout's amount is returned, once", () => {
    spec
      .given([...created, declinedEvent])
      .when(refund)
      .thenEmits([{ _tag: "BankCardTransferRefunded", refundedTime: refunded }])
    spec
      .given([...created, failedEvent, { _tag: "BankCardTransferRefunded", refundedTime: refunded }])
      .when(refund)
      .thenNothing()
  })

  it("refuses a refund of a payout that has not failed: 62029 while CREATED, 62028 after SUCCESS", () => {
    spec.given(created).when(refund).thenRejects({ code: "ORDER_CREATED" })
    spec
      .given([...created, succeededEvent])
      .when(refund)
      .thenRejects({ code: "ORDER_SUCCESS" })
    spec.given([]).when(refund).thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" })
  })

  it("announces every status change and the refund to the notifier", () => {
    expect(BankCardTransfer.announcedEvents).toEqual([
      "BankCardTransferSucceeded",
      "BankCardTransferDeclined",
      "BankCardTransferFailed",
      "BankCardTransferRefunded",
    ])
  })
})

describe("bank card transfer invariants", () => {
  const order = [placedBy(place())].reduce(aggregate.evolve, aggregate.initialState)

  it("hold on a placed order and report a broken one", () => {
    expect(invariants(order)).toEqual([])
    if (order.status === "ABSENT") throw new Error("placed")
    expect(invariants({ ...order, payerFeeAmount: fils(0) })).toHaveLength(1)
    expect(invariants({ ...order, cardLast4: "11x1" })).toHaveLength(1)
    expect(invariants({ ...order, expiryYear: "2025" })).toHaveLength(1)
    expect(invariants({ ...order, companyName: sha256("ACME") })).toHaveLength(1)
  })

  it("hold on the order of a forgotten card holder, whose card fields read [forgotten], and still catch a wrong fee", () => {
    if (order.status === "ABSENT") throw new Error("placed")
    const forgottenCard = {
      ...order,
      cardNumber: forgotten,
      cardLast4: forgotten,
      expiryYear: forgotten,
      expiryMonth: forgotten,
      firstName: forgotten,
      lastName: forgotten,
    }
    expect(invariants(forgottenCard)).toEqual([])
    expect(invariants({ ...forgottenCard, payerFeeAmount: fils(0) }).map((broken) => broken.rule)).toEqual([
      rules.feeFromPlan,
    ])
  })
})

// Random histories of one order over random clear card numbers and names, outcomes, refunds and retries.
const upper = fc.stringMatching(/^[G-Z][G-Z ]{3,15}$/)
const clearCardArbitrary = fc.stringMatching(/^[1-9][0-9]{11,18}$/)
const holderArbitrary = fc.oneof(
  fc.record({ firstName: upper, lastName: upper }),
  fc.record({ companyName: upper.map((name) => `${name} LLC`) }),
)
const placeArbitrary = fc
  .record({
    holder: holderArbitrary,
    clear: clearCardArbitrary,
    amount: fc.constantFrom(50_000, 50_000, 1),
    expiryMonth: fc.constantFrom("1", "3", "09", "12"),
    expiryYear: fc.constantFrom("2026", "2027"),
    enabled: fc.boolean(),
  })
  .map(({ holder, clear, amount, expiryMonth, expiryYear, enabled }) => ({
    clear,
    holder,
    command: {
      ...edge(holder, clear, { amount: fils(amount), expiryMonth, expiryYear }),
      enabledProducts: enabled ? ["TRANSFER_TO_BANK_CARD"] : [],
    },
  }))
const otherArbitrary = fc.constantFrom<BankCardTransfer.Command>(
  outcome(paid),
  outcome(declined),
  outcome(failed),
  refund,
)
const history = fc
  .tuple(
    fc.array(placeArbitrary, { minLength: 1, maxLength: 3 }),
    fc.array(fc.oneof(fc.nat({ max: 2 }), otherArbitrary), { minLength: 1, maxLength: 8 }),
  )
  .map(([placements, script]) => ({
    placements,
    // A number in the script places (again) one of the generated placements: repeats and retries.
    commands: script.map((item) =>
      typeof item === "number" ? (placements[item % placements.length]?.command ?? refund) : item,
    ),
  }))

const isTerminal = (status: string) => status === "SUCCESS" || status === "FAILURE" || status === "BANK_FAIL"

describe("bank card transfer properties", () => {
  test.prop([history], { numRuns: 150 })(
    "never writes a clear card number or a clear name into an event",
    ({ placements, commands }) => {
      const written = runCommands(aggregate, commands)
        .flatMap((step) => (Result.isSuccess(step.decided) ? step.decided.success : []))
        .map((event) => JSON.stringify(aggregate.codec.encode(event)))
        .join("\n")
      for (const { clear, holder } of placements) {
        expect(written).not.toContain(clear)
        for (const name of Object.values(holder)) expect(written).not.toContain(name)
      }
    },
  )

  test.prop([history], { numRuns: 150 })("keeps every invariant after every step", ({ commands }) => {
    for (const step of runCommands(aggregate, commands)) expect(invariants(step.after)).toEqual([])
  })

  test.prop([history], { numRuns: 150 })(
    "never moves a SUCCESS, FAILURE or BANK_FAIL to another status",
    ({ commands }) => {
      for (const step of runCommands(aggregate, commands))
        if (isTerminal(step.before.status)) expect(step.after.status).toBe(step.before.status)
    },
  )

  test.prop([history], { numRuns: 150 })(
    "decides nothing new for a command repeated right after it",
    ({ commands }) => {
      for (const step of runCommands(aggregate, commands)) {
        const again = aggregate.decide(step.command, step.after)
        expect(Result.isSuccess(again) ? again.success : []).toEqual([])
      }
    },
  )

  test.prop([history], { numRuns: 100 })("writes every event so that it reads back equal", ({ commands }) => {
    for (const step of runCommands(aggregate, commands))
      for (const event of Result.isSuccess(step.decided) ? step.decided.success : []) {
        const written = JSON.parse(JSON.stringify(aggregate.codec.encode(event)))
        expect(Result.getOrThrow(aggregate.codec.decode(written))).toEqual(event)
      }
  })
})
