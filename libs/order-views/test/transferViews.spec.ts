/**
 * What a merchant reads of a bank transfer's arrival and of an IBAN holder
 * name check, in the form PayBy's published documentation answers them:
 * `paymentInfo.arrivalTime` a number from the placement on, and the name
 * check's `nameMatchingLevel` and `nameMatchingResult` as text.
 */
import { type Timestamp, timestamp } from "@mizan/kernel"
import { BankTransfer, type IbanHolderName } from "@mizan/transfer"
import { digestOf, placeBankTransfer } from "@mizan/transfer/testing"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { toWireIbanHolderName, toWireTransferToBankOrder } from "../src/index.ts"

const placedAt = timestamp(Date.UTC(2026, 2, 1, 10))
const arrivedAt = timestamp(Date.UTC(2026, 2, 1, 10, 20))

/** Runs the commands through the real decider, each on the state the ones before left. */
const orderAfter = (...commands: ReadonlyArray<BankTransfer.Command>): BankTransfer.BankTransferOrder => {
  let state = BankTransfer.aggregate.initialState
  for (const command of commands)
    state = Result.getOrThrow(BankTransfer.aggregate.decide(command, state)).reduce(
      BankTransfer.aggregate.evolve,
      state,
    )
  if (state.status === "ABSENT") throw new Error("the transfer was not placed")
  return state
}

const placed = (arrivalDelayMinutes: number) =>
  placeBankTransfer({ now: placedAt, holderName: digestOf(1), iban: digestOf(2), arrivalDelayMinutes })
const reported = (outcome: BankTransfer.BankOutcome, now: Timestamp = arrivedAt): BankTransfer.RecordBankOutcome => ({
  _tag: "RecordBankOutcome",
  merchantId: "M1",
  now,
  outcome,
})

describe("a bank transfer's paymentInfo.arrivalTime", () => {
  it("answers a CREATED transfer's expected arrival as a number: the placement plus its network's delay", () => {
    const { paymentInfo } = toWireTransferToBankOrder(orderAfter(placed(60)))
    expect(typeof paymentInfo?.arrivalTime).toBe("number")
    expect(paymentInfo?.arrivalTime).toBe(Date.UTC(2026, 2, 1, 11))
  })

  it("answers the bank's arrival time in place of the estimate once the transfer arrived, earlier or later", () => {
    const early = orderAfter(placed(60), reported({ _tag: "Succeeded", bankReference: "FT1", arrivalTime: arrivedAt }))
    expect(toWireTransferToBankOrder(early).paymentInfo?.arrivalTime).toBe(Date.UTC(2026, 2, 1, 10, 20))
    const lateAt = timestamp(Date.UTC(2026, 2, 4, 9))
    const late = orderAfter(
      placed(60),
      reported({ _tag: "Succeeded", bankReference: "FT2", arrivalTime: lateAt }, lateAt),
    )
    expect(toWireTransferToBankOrder(late).paymentInfo?.arrivalTime).toBe(Date.UTC(2026, 2, 4, 9))
  })

  it("answers no arrival for a failed transfer: nothing will arrive, and the fee stays shown", () => {
    const { paymentInfo } = toWireTransferToBankOrder(
      orderAfter(placed(60), reported({ _tag: "Failed", failDes: "Beneficiary account closed" })),
    )
    expect(paymentInfo).toEqual({ payerFeeAmount: 1_000 })
  })

  it("answers no arrival for a CREATED transfer recorded before estimates were (its event has none)", () => {
    const { expectedArrivalTime: _, ...recordedBefore } = orderAfter(placed(60))
    expect(toWireTransferToBankOrder(recordedBefore).paymentInfo).toEqual({ payerFeeAmount: 1_000 })
  })
})

describe("an IBAN holder name check on the wire", () => {
  const check = (
    nameMatchingLevel: IbanHolderName["nameMatchingLevel"],
    nameMatchingResult: IbanHolderName["nameMatchingResult"],
  ) => toWireIbanHolderName({ holderNameMask: "J*** S****", nameMatchingLevel, nameMatchingResult })

  it.each([
    ["the same words in the same order", "EXACT", "MATCH", "1", "TRUE"],
    ["the same words in another order", "REORDERED", "MATCH", "2", "TRUE"],
    ["a close match, asked about before paying", "PARTIAL", "CLOSE_MATCH", "3", "FALSE"],
    ["no match", "NONE", "NO_MATCH", "4", "FALSE"],
  ] as const)("answers %s (%s, %s) as level %s, result %s", (_, level, result, wireLevel, wireResult) =>
    expect(check(level, result)).toEqual({
      holderNameMask: "J*** S****",
      nameMatchingLevel: wireLevel,
      nameMatchingResult: wireResult,
    }),
  )
})
