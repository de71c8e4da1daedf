/**
 * Each rule of the transfer invariants on states no decider writes, built by
 * hand as a damaged store could hold them: the exact problem it reports, and
 * the same state at the rule's bound, which breaks nothing. The limits are
 * the spec's (Limits): AED 10,000 a wallet transfer, AED 20,000 a balance.
 */
import { fils, timestamp } from "@mizan/kernel"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "../src/index.ts"
import { placeBankTransfer, placeWalletTransfer } from "../src/testing/index.ts"
import { at, sha256 } from "./support.ts"

const now = at("2026-03-01T10:00:00Z")

describe("wallet transfer rules", () => {
  const { aggregate, invariants } = WalletTransfer
  const placed = Result.getOrThrow(
    aggregate.decide(
      placeWalletTransfer({
        now,
        beneficiaryIdentity: sha256("+971501234567"),
        beneficiary: { _tag: "MemberFound", fullName: sha256("AISHA"), balanceFils: fils(0) },
        feePlan: { basisPoints: 0, fixedFils: fils(0) },
      }),
      aggregate.initialState,
    ),
  ).reduce(aggregate.evolve, aggregate.initialState)
  if (placed.status !== "CREATED") throw new Error("not placed")
  const succeeded = { ...placed, status: "SUCCESS" as const }
  const { beneficiaryBalanceFils: _, ...noMember } = placed

  it.each<[string, WalletTransfer.State, ReadonlyArray<string>]>([
    [
      "AED 10,000 to a member at AED 10,000",
      { ...succeeded, amountFils: fils(1_000_000), beneficiaryBalanceFils: fils(1_000_000) },
      [],
    ],
    [
      "AED 10,000.01",
      { ...succeeded, amountFils: fils(1_000_001), beneficiaryBalanceFils: fils(0) },
      ["a transfer that did not fail carries at most AED 10,000"],
    ],
    [
      "a member taken a fils past AED 20,000",
      { ...succeeded, amountFils: fils(1_000_000), beneficiaryBalanceFils: fils(1_000_001) },
      ["a transfer that did not fail leaves its beneficiary at most AED 20,000"],
    ],
    ["no member found", noMember, ["a transfer that did not fail credited a member it found"]],
    ["a zero amount", { ...succeeded, amountFils: 0 as never }, ["the amount is above zero"]],
    ["a fee equal to the amount", { ...succeeded, payerFeeFils: succeeded.amountFils }, []],
    [
      "a fee a fils above the amount",
      { ...succeeded, payerFeeFils: fils(succeeded.amountFils + 1) },
      ["the payer's fee is not above the amount"],
    ],
    [
      "a failure above the limits, which is why it failed",
      {
        ...succeeded,
        status: "FAILURE",
        amountFils: fils(1_000_001),
        failCode: "TRANSFER_AMOUNT_LIMIT_EXCEEDED",
        failDes: WalletTransfer.walletFailDescription.TRANSFER_AMOUNT_LIMIT_EXCEEDED,
      },
      [],
    ],
    [
      "a failure whose failDes is another code's",
      {
        ...succeeded,
        status: "FAILURE",
        failCode: "BENEFICIARY_NOT_FOUND",
        failDes: WalletTransfer.walletFailDescription.BENEFICIARY_NAME_MISMATCH,
      },
      ["a FAILURE's failDes describes its failCode"],
    ],
  ])("%s", (_, state, problems) => expect(invariants(state).map((broken) => broken.rule)).toEqual(problems))

  it("throws on a status change before the placement: a damaged history is a defect", () =>
    expect(() => aggregate.evolve(aggregate.initialState, { _tag: "WalletTransferSucceeded", at: now })).toThrow(
      "WalletTransferSucceeded on a wallet transfer that was never placed",
    ))
})

describe("bank transfer rules", () => {
  const { aggregate, invariants } = BankTransfer
  const lengthOfA = { holderNameChars: 1, beneficiaryAddressChars: 0 }
  const placed = Result.getOrThrow(
    aggregate.decide(
      placeBankTransfer({ now, holderName: sha256("A"), iban: sha256("I"), clearLengths: lengthOfA }),
      aggregate.initialState,
    ),
  ).reduce(aggregate.evolve, aggregate.initialState)
  if (placed.status === "ABSENT") throw new Error("not placed")

  it.each<[string, BankTransfer.State, ReadonlyArray<string>]>([
    ["as placed", placed, []],
    [
      "a zero amount",
      { ...placed, amountFils: 0 as never },
      [
        "the amount is above zero",
        "fundoutAmount is not orderAmount x rate rounded half up to the currency's minor unit",
        "feeAmount is not the fee plan applied to orderAmount",
      ],
    ],
    [
      "a payout in another currency than ordered",
      { ...placed, fundoutCurrencyCode: "USD" },
      ["fundoutAmount is in fundoutCurrencyCode"],
    ],
    [
      "a payout a fils off the rate",
      { ...placed, fundoutAmount: { currency: "AED", minorUnits: 100_001n } },
      ["fundoutAmount is not orderAmount x rate rounded half up to the currency's minor unit"],
    ],
    [
      "a fee a fils off the plan",
      { ...placed, payerFeeFils: fils(1_001) },
      ["feeAmount is not the fee plan applied to orderAmount"],
    ],
    [
      "an arrival expected at the very moment of the placement",
      { ...placed, expectedArrivalTime: placed.createdTime },
      [],
    ],
    [
      "an arrival expected a millisecond before the placement",
      { ...placed, expectedArrivalTime: timestamp(placed.createdTime - 1) },
      ["the expected arrival is not before the placement"],
    ],
  ])("%s", (_, state, problems) =>
    // A quote that does not hold says which part of it does not, in its detail.
    expect(
      invariants(state).map((broken) => (broken.rule === BankTransfer.rules.quoteHolds ? broken.detail : broken.rule)),
    ).toEqual(problems),
  )

  it("throws on an outcome before the placement", () =>
    expect(() =>
      aggregate.evolve(aggregate.initialState, { _tag: "BankTransferFailed", failDes: "closed", at: now }),
    ).toThrow("BankTransferFailed on a bank transfer that was never placed"))
})

describe("deposit and member account rules", () => {
  it("a deposit of a positive amount holds, one of zero does not", () => {
    const { aggregate, invariants } = VamDeposit
    const received = Result.getOrThrow(
      aggregate.decide(
        {
          _tag: "RecordVamDeposit",
          merchantId: "M1",
          now,
          deposit: { orderNo: "V1", transactionTime: now, amountFils: fils(1), status: "PENDING" },
        },
        aggregate.initialState,
      ),
    ).reduce(aggregate.evolve, aggregate.initialState)
    if (received.status === "ABSENT") throw new Error("not received")
    expect(invariants(received)).toEqual([])
    expect(invariants({ ...received, amountFils: 0 as never }).map((broken) => broken.rule)).toEqual([
      "the amount is above zero",
    ])
    expect(invariants(aggregate.initialState)).toEqual([])
    expect(() =>
      aggregate.evolve(aggregate.initialState, {
        _tag: "VamDepositSettled",
        status: "SUCCESS",
        transactionTime: now,
        at: now,
      }),
    ).toThrow("VamDepositSettled on a deposit that was never received")
  })

  it("a member balance is the opening balance plus every credit", () => {
    const { aggregate, invariants } = MemberAccount
    const opened = aggregate.evolve(aggregate.initialState, {
      _tag: "MemberAccountOpened",
      memberIdDigest: sha256("1"),
      phoneNoDigest: sha256("2"),
      fullName: sha256("3"),
      openingBalanceFils: fils(100),
      at: now,
    })
    const credited = aggregate.evolve(opened, {
      _tag: "MemberAccountCredited",
      reference: "T1",
      amountFils: fils(50),
      balanceAfterFils: fils(150),
      at: now,
    })
    expect(invariants(credited)).toEqual([])
    if (credited.status === "ABSENT") throw new Error("not open")
    expect(invariants({ ...credited, balanceFils: fils(151) })).toEqual([
      {
        rule: "the balance is the opening balance plus every credit, each booked once",
        detail: "balance 151 fils, opening 100 + credits 50 fils",
      },
    ])
    expect(() =>
      aggregate.evolve(aggregate.initialState, {
        _tag: "MemberAccountCredited",
        reference: "T1",
        amountFils: fils(50),
        balanceAfterFils: fils(50),
        at: now,
      }),
    ).toThrow("MemberAccountCredited on an account that was never opened")
  })
})
