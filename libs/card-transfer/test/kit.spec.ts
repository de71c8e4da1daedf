/**
 * The card-transfer kit (`src/testing/`): its histories keep every law of
 * the real aggregate, retries decide nothing, and each law throws
 * LawBroken on code broken on purpose.
 */

import { test } from "@fast-check/vitest"
import { historyOf, lawBrokenBy } from "@mizan/eventsourcing/testing"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BankCardTransfer } from "../src/index.ts"
import {
  cardNumbersNeverWritten,
  cardPayoutRefund,
  cardPayoutReport,
  cardTransferLifecycleHolds,
  cardTransferRetries,
  cardTransferRulesHold,
  LawBroken,
  placeCardTransfer,
  retriesDecideNothing,
  standInDigest,
  validCardTransferHistories,
} from "../src/testing/index.ts"

const { aggregate } = BankCardTransfer

describe("the bank card transfer histories", () => {
  test.prop([validCardTransferHistories], { numRuns: 200 })(
    "keep the rules and the lifecycle, and never write a clear card number",
    (history) => {
      expect(cardTransferRulesHold(history.appends)).toEqual(history.state)
      cardTransferLifecycleHolds(history.events)
      cardNumbersNeverWritten(history)
    },
  )

  it("reach every status, refunds and refusals of each kind on a fixed seed", () => {
    const histories = fc.sample(validCardTransferHistories, { numRuns: 150, seed: 16 })
    expect(new Set(histories.map((h) => h.state.status))).toEqual(
      new Set(["ABSENT", "CREATED", "SUCCESS", "BANK_FAIL", "FAILURE"]),
    )
    expect(histories.some((h) => h.events.some((e) => e._tag === "BankCardTransferRefunded"))).toBe(true)
    const codes = new Set(
      histories.flatMap((h) => h.steps.flatMap((s) => (Result.isFailure(s.decided) ? [s.decided.failure.code] : []))),
    )
    for (const code of ["INVALID_PARAMETER", "PRODUCT_IS_NOT_APPLIED", "MERCHANT_ORDER_NO_EXIST", "ORDER_CREATED"])
      expect(codes, code).toContain(code)
  })

  test.prop([cardTransferRetries], { numRuns: 200 })("decide nothing new for a retry, however late", (history) => {
    retriesDecideNothing(aggregate)(history.commands)
  })

  it("stand in digests that differ for different numbers and never spell the number", () => {
    expect(standInDigest("4111111111111111")).not.toBe(standInDigest("4111111111111112"))
    expect(standInDigest("4111111111111111")).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe("the laws catch broken code", () => {
  const placed = historyOf(aggregate)([placeCardTransfer()]).events

  it("cardNumbersNeverWritten names an event that a careless decider wrote the clear number into", () => {
    const careless: typeof aggregate = {
      ...aggregate,
      decide: (command, state) =>
        Result.map(aggregate.decide(command, state), (events) =>
          events.map((e) =>
            e._tag === "BankCardTransferPlaced" && command._tag === "PlaceBankCardTransfer"
              ? { ...e, memo: command.cardNumber.reveal() }
              : e,
          ),
        ),
    }
    const history = historyOf(careless)([placeCardTransfer()])
    expect(lawBrokenBy(() => cardNumbersNeverWritten(history))).toMatchObject({
      name: "LawBroken",
      step: 1,
      what: "BankCardTransferPlaced",
      detail: "the number ending 1111",
    })
    cardNumbersNeverWritten(historyOf(aggregate)([placeCardTransfer()]))
  })

  it("cardTransferLifecycleHolds names a refund written after a payout that succeeded", () => {
    const commands = [placeCardTransfer(), cardPayoutReport({ _tag: "Paid", bankReference: "VD1" }), cardPayoutRefund]
    const events = historyOf(aggregate)(commands).events
    expect(cardTransferLifecycleHolds(events)).toBe("SUCCESS")
    const refunded = { _tag: "BankCardTransferRefunded", refundedTime: cardPayoutRefund.now } as const
    expect(lawBrokenBy(() => cardTransferLifecycleHolds([...events, refunded]))).toMatchObject({
      name: "LawBroken",
      step: 3,
      what: "BankCardTransferRefunded",
      detail: "SUCCESS → REFUNDED",
    })
  })

  it("cardTransferRulesHold names a placement written with a fee its plan does not give", () => {
    const [first] = placed
    if (first?._tag !== "BankCardTransferPlaced") throw new Error("the placement was refused")
    const broken = lawBrokenBy(() => cardTransferRulesHold([{ ...first, payerFeeFils: first.amountFils }]))
    expect(broken).toBeInstanceOf(LawBroken)
    expect(broken).toMatchObject({ rule: "payerFeeAmount is the fee plan applied to the amount", step: 1 })
  })
})
