import { test } from "@fast-check/vitest"
import { deciderSpec } from "@mizan/eventsourcing/testing"
import { type FeePlan, fils } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BankTransfer, quoteFundout, rate } from "../src/index.ts"
import { payoutAbility, placeBankTransfer } from "../src/testing/index.ts"
import { at, eventsOf, runCommands, sha256, withRetries } from "./support.ts"

const { aggregate, invariants } = BankTransfer
const spec = deciderSpec(aggregate)

const now = at("2026-03-01T10:00:00Z")
const later = at("2026-03-02T08:00:00Z")
const swiftFee: FeePlan = { basisPoints: 25, fixedFils: fils(1_500) }
const abilities = [
  payoutAbility("LOCAL", "AED", { basisPoints: 0, fixedFils: fils(200) }),
  payoutAbility("SWIFT", "USD", swiftFee),
]
const holderName = sha256("AISHA AL MANSOURI")
const iban = sha256("AE070331234567890123456")

const place = (
  request: Partial<BankTransfer.BankTransferRequest> = {},
  clearLengths: BankTransfer.ClearTextLengths = { holderNameChars: 17, beneficiaryAddressChars: 0 },
): BankTransfer.PlaceBankTransfer =>
  placeBankTransfer({ now, holderName, iban, request, clearLengths, abilities, rate: rate("0.2723") })

const placedBy = (command: BankTransfer.PlaceBankTransfer) =>
  Result.getOrThrow(aggregate.decide(command, aggregate.initialState))[0] as BankTransfer.BankTransferPlaced

const outcome = (recorded: BankTransfer.BankOutcome): BankTransfer.RecordBankOutcome => ({
  _tag: "RecordBankOutcome",
  merchantId: "M1",
  now: later,
  outcome: recorded,
})
const paid: BankTransfer.BankOutcome = { _tag: "Succeeded", bankReference: "FT26060ABCD", arrivalTime: later }
const bounced: BankTransfer.BankOutcome = { _tag: "Failed", failDes: "Beneficiary account closed" }

const refusalOf = (command: BankTransfer.PlaceBankTransfer) => {
  const decided = aggregate.decide(command, aggregate.initialState)
  return Result.isFailure(decided) ? decided.failure : undefined
}

describe("placing a bank transfer", () => {
  it("records the order CREATED with the defaults, the rate and the network's fee fixed", () =>
    spec
      .given([])
      .when(place({ memo: "invoice 42", notifyUrl: "https://merchant.example/notify" }))
      .thenEmits([
        {
          _tag: "BankTransferPlaced",
          merchantId: "M1",
          orderNo: "B0001",
          requestTime: now,
          createdTime: now,
          product: "TRANSFER_TO_BANK",
          merchantOrderNo: "P-1",
          amountFils: fils(100_000),
          holderName,
          iban,
          memo: "invoice 42",
          notifyUrl: "https://merchant.example/notify",
          networkCode: "LOCAL",
          countryCode: "AE",
          fundoutCurrencyCode: "AED",
          beneficiaryType: "IBAN",
          payerFeeFils: fils(200),
          feePlan: { basisPoints: 0, fixedFils: fils(200) },
          fundoutAmount: { currency: "AED", minorUnits: 100_000n },
          rate: rate("1"),
          // The builder's network takes an hour.
          expectedArrivalTime: at("2026-03-01T11:00:00Z"),
        },
      ]))

  it("expects the money its network's delay after the placement: two days on, to the millisecond", () =>
    expect(
      placedBy(placeBankTransfer({ now, holderName, iban, abilities, arrivalDelayMinutes: 2_880 })).expectedArrivalTime,
    ).toBe(at("2026-03-03T10:00:00Z")))

  it("expects the money at the placement itself on a network without delay", () =>
    expect(
      placedBy(placeBankTransfer({ now, holderName, iban, abilities, arrivalDelayMinutes: 0 })).expectedArrivalTime,
    ).toBe(now))

  it("fixes a foreign payout at the rate of placement: 1,000.00 AED at 0.2723 is 272.30 USD plus the SWIFT fee", () =>
    spec
      .given([])
      .when(place({ networkCode: "SWIFT", fundoutCurrencyCode: "USD", swiftCode: "CHASUS33XXX" }))
      .thenState((state) => {
        expect(state).toMatchObject({
          status: "CREATED",
          fundoutAmount: { currency: "USD", minorUnits: 27_230n },
          rate: "0.2723",
          // 0.25% of 1,000.00 plus 15.00 AED.
          payerFeeFils: 1_750,
        })
      }))

  it("refuses a network and currency that are not an enabled ability with 62076", () =>
    spec
      .given([])
      .when(place({ networkCode: "SWIFT", fundoutCurrencyCode: "EUR" }))
      .thenRejects({ code: "FUND_OUT_ABILITY_SUPPORTED" }))

  it("says of a network left out that it defaults to LOCAL, which is not enabled with the currency sent", () =>
    spec
      .given([])
      .when(place({ fundoutCurrencyCode: "USD" }))
      .thenRejects({
        code: "FUND_OUT_ABILITY_SUPPORTED",
        detail:
          "networkCode was not sent and defaults to LOCAL, which with fundoutCurrencyCode USD is not enabled for this merchant",
      }))

  it("accepts holderName plus beneficiaryAddress of exactly 140 characters", () =>
    spec
      .given([])
      .when(place({ beneficiaryAddress: sha256("address") }, { holderNameChars: 70, beneficiaryAddressChars: 70 }))
      .thenState((state) => expect(state.status).toBe("CREATED")))

  it("refuses holderName plus beneficiaryAddress above 140 characters with 400", () =>
    spec
      .given([])
      .when(place({ beneficiaryAddress: sha256("address") }, { holderNameChars: 70, beneficiaryAddressChars: 71 }))
      .thenRejects({ code: "INVALID_PARAMETER" }))

  it.each(
    [
      ["swiftCode", "CHASUS33"],
      ["swiftCode", "CHASUS33XXX"],
      ["fedwireCode", "021000021"],
      ["bankName", "b".repeat(64)],
      ["branchName", "b".repeat(35)],
      ["intermediaryBank", "i".repeat(12)],
      ["purposeCode", "p".repeat(35)],
      ["memo", "m".repeat(128)],
      ["notifyUrl", "u".repeat(200)],
      ["countryCode", "c".repeat(16)],
      ["beneficiaryType", "t".repeat(16)],
      ["merchantOrderNo", "o".repeat(64)],
    ].map(([field, value]) => ({ field: String(field), value, length: String(value).length })),
  )("accepts a $field of $length characters", ({ field, value }) => {
    expect(refusalOf(place({ [field]: value }))).toBeUndefined()
  })

  it("pays out AED at exactly 1, whatever rate came with the command", () =>
    spec
      .given([])
      .when({ ...place(), rate: rate("3.6725") })
      .thenState((state) => expect(state).toMatchObject({ fundoutAmount: { minorUnits: 100_000n }, rate: "1" })))

  it.each(
    [
      ["swiftCode", "CHASUS3", "must be 8 to 11 letters and digits"],
      ["swiftCode", "CHASUS33XXXX", "must be 8 to 11 letters and digits"],
      ["swiftCode", "CHAS-US33", "must be 8 to 11 letters and digits"],
      ["fedwireCode", "02100002", "must be exactly 9 digits"],
      ["fedwireCode", "0210000210", "must be exactly 9 digits"],
      ["fedwireCode", "02100002A", "must be exactly 9 digits"],
      ["bankName", "b".repeat(65), "must be at most 64 characters"],
      ["branchName", "b".repeat(36), "must be at most 35 characters"],
      ["intermediaryBank", "i".repeat(13), "must be at most 12 characters"],
      ["purposeCode", "p".repeat(36), "must be at most 35 characters"],
      ["memo", "m".repeat(129), "must be at most 128 characters"],
      ["notifyUrl", "u".repeat(201), "must be at most 200 characters"],
      ["networkCode", "n".repeat(21), "must be at most 20 characters"],
      ["countryCode", "c".repeat(17), "must be at most 16 characters"],
      ["fundoutCurrencyCode", "f".repeat(17), "must be at most 16 characters"],
      ["beneficiaryType", "t".repeat(17), "must be at most 16 characters"],
      ["merchantOrderNo", "o".repeat(65), "must be at most 64 characters"],
      ["holderName", "AISHA AL MANSOURI", "must be a lower-case hex SHA-256 digest"],
      ["iban", "AE070331234567890123456", "must be a lower-case hex SHA-256 digest"],
      ["amountFils", 0, "must be greater than 0"],
    ].map(([field, value, rule]) => ({ field: String(field), value, rule, length: String(value).length })),
  )("refuses a $field of $length characters with 400: $rule", ({ field, value, rule }) => {
    const refusal = refusalOf(place({ [field]: value }))
    // The field as the command's request names it, as data and at the start of the sentence.
    expect(refusal).toMatchObject({ code: "INVALID_PARAMETER", field })
    expect(refusal?.detail).toContain(`${field} ${rule}`)
  })

  it("answers a repeat with the same parameters with nothing new, the defaults spelled out or not", () =>
    spec
      .given([placedBy(place())])
      .when({
        ...place({ networkCode: "LOCAL", countryCode: "AE", fundoutCurrencyCode: "AED", beneficiaryType: "IBAN" }),
        orderNo: "B0002",
        rate: rate("0.2724"),
      })
      .thenNothing())

  it("refuses the same merchantOrderNo with different parameters with 62016", () =>
    spec
      .given([placedBy(place())])
      .when(place({ amountFils: fils(100_001) }))
      .thenRejects({ code: "MERCHANT_ORDER_NO_EXIST" }))
})

describe("the bank's outcome", () => {
  const created = [placedBy(place({ notifyUrl: "https://merchant.example/notify" }))]
  const succeeded: BankTransfer.BankTransferSucceeded = {
    _tag: "BankTransferSucceeded",
    bankReference: "FT26060ABCD",
    arrivalTime: later,
    at: later,
  }
  const failed: BankTransfer.BankTransferFailed = {
    _tag: "BankTransferFailed",
    failDes: "Beneficiary account closed",
    at: later,
  }

  it("moves a paid transfer to SUCCESS with the bank's reference and arrival time", () => {
    spec.given(created).when(outcome(paid)).thenEmits([succeeded])
    spec
      .given(created)
      .when(outcome(paid))
      .thenState((state) =>
        expect(state).toMatchObject({
          status: "SUCCESS",
          bankReference: "FT26060ABCD",
          // The bank's time replaces the estimate in what the order answers; the estimate stays as recorded.
          arrivalTime: later,
          expectedArrivalTime: at("2026-03-01T11:00:00Z"),
        }),
      )
  })

  it("moves a bounced transfer to FAILURE with the reason", () =>
    spec.given(created).when(outcome(bounced)).thenEmits([failed]))

  it("announces both status changes to the notifier", () => {
    expect(BankTransfer.announcedEvents).toEqual(["BankTransferSucceeded", "BankTransferFailed"])
  })

  it("refuses an outcome for an order that does not exist with 62004", () =>
    spec.given([]).when(outcome(paid)).thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }))

  it("refuses an outcome for another merchant's order with 62004", () =>
    spec
      .given(created)
      .when({ ...outcome(paid), merchantId: "M2" })
      .thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }))

  it("answers the same outcome again with nothing new", () => {
    spec
      .given([...created, succeeded])
      .when(outcome(paid))
      .thenNothing()
    spec
      .given([...created, failed])
      .when(outcome(bounced))
      .thenNothing()
  })

  it("keeps a SUCCESS final: another outcome answers 62028", () => {
    spec
      .given([...created, succeeded])
      .when(outcome(bounced))
      .thenRejects({ code: "ORDER_SUCCESS" })
    spec
      .given([...created, succeeded])
      .when(outcome({ ...paid, bankReference: "OTHER" }))
      .thenRejects({ code: "ORDER_SUCCESS" })
  })

  it("keeps a FAILURE final: another outcome answers 62002", () =>
    spec
      .given([...created, failed])
      .when(outcome(paid))
      .thenRejects({ code: "ORDER_FAILURE" }))
})

describe("bank transfer invariants", () => {
  const order = [placedBy(place({ networkCode: "SWIFT", fundoutCurrencyCode: "USD" }))].reduce(
    aggregate.evolve,
    aggregate.initialState,
  )

  it("hold on a placed order", () => expect(invariants(order)).toEqual([]))

  it("report a fundoutAmount, fee or currency that does not follow from the rate and plan", () => {
    if (order.status === "ABSENT") throw new Error("placed")
    expect(invariants({ ...order, fundoutAmount: { currency: "USD", minorUnits: 27_231n } })).toHaveLength(1)
    expect(invariants({ ...order, payerFeeFils: fils(0) })).toHaveLength(1)
    expect(invariants({ ...order, fundoutCurrencyCode: "EUR" })).toHaveLength(1)
  })
})

// Random histories of one order: placements over random networks, currencies, rates and amounts; outcomes; retries.
const abilityPool = [
  payoutAbility("LOCAL", "AED", { basisPoints: 0, fixedFils: fils(200) }),
  payoutAbility("SWIFT", "USD", swiftFee),
  payoutAbility("SWIFT", "JPY", { basisPoints: 10, fixedFils: fils(0) }),
  payoutAbility("SWIFT", "KWD", { basisPoints: 9_999, fixedFils: fils(99) }),
]
const placeArbitrary = fc
  .record({
    enabled: fc.subarray(abilityPool),
    network: fc.constantFrom("LOCAL", "SWIFT"),
    currency: fc.constantFrom("AED", "USD", "JPY", "KWD"),
    amount: fc.integer({ min: 1, max: 99_999_999_999_999 }),
    rateText: fc.constantFrom("1", "0.2723", "40.157", "0.08374", "3.6725"),
    memo: fc.constantFrom("a", "b"),
  })
  .map(({ enabled, network, currency, amount, rateText, memo }) => ({
    ...place({ networkCode: network, fundoutCurrencyCode: currency, amountFils: fils(amount), memo }),
    abilities: enabled,
    rate: rate(rateText),
  }))
const outcomeArbitrary = fc.constantFrom(paid, bounced, { ...paid, bankReference: "OTHER" }).map(outcome)
const history = fc
  .array(fc.oneof({ weight: 2, arbitrary: placeArbitrary }, { weight: 1, arbitrary: outcomeArbitrary }), {
    minLength: 1,
    maxLength: 8,
  })
  .chain((commands) =>
    fc
      .array(fc.boolean(), { minLength: commands.length, maxLength: commands.length })
      .map((retried) => withRetries<BankTransfer.Command>(commands, retried)),
  )

describe("bank transfer properties", () => {
  test.prop([history], { numRuns: 150 })(
    "keeps fundoutAmount, fee and rate in agreement with the rounding rule after every step",
    (commands) => {
      for (const step of runCommands(aggregate, commands)) expect(invariants(step.after)).toEqual([])
    },
  )

  test.prop([history], { numRuns: 150 })("never moves a SUCCESS or FAILURE to another status", (commands) => {
    for (const step of runCommands(aggregate, commands))
      if (step.before.status === "SUCCESS" || step.before.status === "FAILURE")
        expect(step.after.status).toBe(step.before.status)
  })

  test.prop([history], { numRuns: 150 })("decides nothing new for a command repeated right after it", (commands) => {
    for (const step of runCommands(aggregate, commands)) {
      const again = aggregate.decide(step.command, step.after)
      expect(Result.isSuccess(again) ? again.success : []).toEqual([])
    }
  })

  test.prop([placeArbitrary], { numRuns: 150 })(
    "places an order if and only if its network and currency are enabled, at the quote of that ability",
    (command) => {
      const decided = aggregate.decide(command, aggregate.initialState)
      const { networkCode, fundoutCurrencyCode, amountFils: amount } = command.request
      const enabled = command.abilities.find(
        (a) => a.networkCode === networkCode && a.fundoutCurrencyCode === fundoutCurrencyCode,
      )
      if (enabled === undefined) {
        expect(Result.isFailure(decided) && decided.failure.code).toBe("FUND_OUT_ABILITY_SUPPORTED")
        return
      }
      const placed = Result.getOrThrow(decided)[0] as BankTransfer.BankTransferPlaced
      const quote = quoteFundout(enabled, amount, command.rate)
      expect([placed.fundoutAmount, placed.payerFeeFils, placed.rate]).toEqual([
        quote.fundoutAmount,
        quote.feeAmount,
        quote.rate,
      ])
    },
  )

  test.prop([history], { numRuns: 100 })("writes every event so that it reads back equal", (commands) => {
    for (const step of runCommands(aggregate, commands))
      for (const event of eventsOf(step)) {
        const written = JSON.parse(JSON.stringify(aggregate.codec.encode(event)))
        expect(Result.getOrThrow(aggregate.codec.decode(written))).toEqual(event)
      }
  })
})
