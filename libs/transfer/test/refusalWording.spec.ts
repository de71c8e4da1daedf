/**
 * Every refusal of the transfer deciders says what refused it: the order's
 * number and status, or the rule. One row per refusal, with its code (or the
 * member account's reason) and its exact detail; and what each invariant says
 * when a damaged state breaks it.
 */
import { type FeePlan, fils } from "@mizan/kernel"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "../src/index.ts"
import {
  creditMemberAccount,
  openMemberAccount,
  payoutAbility,
  placeBankTransfer,
  placeWalletTransfer,
} from "../src/testing/index.ts"
import { at, sha256 } from "./support.ts"

const now = at("2026-03-01T10:00:00Z")
const later = at("2026-03-01T10:00:05Z")

/** The state after the commands, each decided on the state the earlier ones left (all must be accepted). */
const stateAfter = <C, E, S, R>(
  aggregate: { decide: (c: C, s: S) => Result.Result<ReadonlyArray<E>, R>; evolve: (s: S, e: E) => S; initialState: S },
  ...commands: ReadonlyArray<C>
): S =>
  commands.reduce(
    (state, command) => Result.getOrThrow(aggregate.decide(command, state)).reduce(aggregate.evolve, state),
    aggregate.initialState,
  )
const refusalOf = <C, E, S, R extends { readonly detail: string }>(
  aggregate: { decide: (c: C, s: S) => Result.Result<ReadonlyArray<E>, R> },
  state: S,
  command: C,
) => {
  const decided = aggregate.decide(command, state)
  return Result.isFailure(decided) ? decided.failure : "decided"
}

describe("wallet transfer refusals", () => {
  const { aggregate } = WalletTransfer
  const found: WalletTransfer.Beneficiary = { _tag: "MemberFound", fullName: sha256("AISHA"), balanceFils: fils(0) }
  const place = (request: Partial<WalletTransfer.WalletTransferRequest> = {}) =>
    placeWalletTransfer({ now, beneficiaryIdentity: sha256("+971501234567"), beneficiary: found, request })
  const settle = (outcome: WalletTransfer.CreditOutcome, merchantId = "M1"): WalletTransfer.SettleWalletTransfer => ({
    _tag: "SettleWalletTransfer",
    merchantId,
    now: later,
    outcome,
  })
  const succeeded = stateAfter(aggregate, place(), settle({ _tag: "Credited" }))
  const failed = stateAfter(aggregate, place(), settle({ _tag: "NotCredited", failCode: "BENEFICIARY_NOT_FOUND" }))

  it.each<[string, WalletTransfer.State, WalletTransfer.Command, string, string]>([
    [
      "another request under a used merchantOrderNo",
      succeeded,
      place({ memo: "rent" }),
      "MERCHANT_ORDER_NO_EXIST",
      "merchantOrderNo W-1 is already a wallet transfer with different parameters",
    ],
    [
      "settling a transfer that was never placed",
      aggregate.initialState,
      settle({ _tag: "Credited" }),
      "MERCHANT_ORDER_NO_NOT_EXIST",
      "merchantOrderNo names no wallet transfer of this merchant",
    ],
    [
      "settling another merchant's transfer",
      stateAfter(aggregate, place()),
      settle({ _tag: "Credited" }, "M2"),
      "MERCHANT_ORDER_NO_NOT_EXIST",
      "merchantOrderNo names no wallet transfer of this merchant",
    ],
    [
      "failing a transfer that succeeded",
      succeeded,
      settle({ _tag: "NotCredited", failCode: "BENEFICIARY_NOT_FOUND" }),
      "ORDER_SUCCESS",
      "wallet transfer T0001 has already succeeded",
    ],
    [
      "crediting a transfer that failed",
      failed,
      settle({ _tag: "Credited" }),
      "ORDER_FAILURE",
      "wallet transfer T0001 has already failed",
    ],
  ])("%s", (_, state, command, code, detail) =>
    expect(refusalOf(aggregate, state, command)).toMatchObject({ code, detail }),
  )

  it("describes each failure it records, never naming the beneficiary", () =>
    expect(WalletTransfer.walletFailDescription).toEqual({
      TRANSFER_AMOUNT_LIMIT_EXCEEDED: "The amount is above AED 10,000, the most one wallet transfer may carry",
      BENEFICIARY_NOT_FOUND: "No member is registered under the beneficiary identity",
      BENEFICIARY_NAME_MISMATCH: "The beneficiary full name does not match the member's identity records",
      BENEFICIARY_BALANCE_LIMIT_EXCEEDED: "The beneficiary's balance plus the amount would exceed AED 20,000",
    }))
})

describe("bank transfer refusals", () => {
  const { aggregate } = BankTransfer
  const free: FeePlan = { basisPoints: 0, fixedFils: fils(0) }
  const place = (
    request: Partial<BankTransfer.BankTransferRequest> = {},
    clearLengths: BankTransfer.ClearTextLengths = { holderNameChars: 17, beneficiaryAddressChars: 0 },
  ) =>
    placeBankTransfer({
      now,
      holderName: sha256("A"),
      iban: sha256("I"),
      request,
      clearLengths,
      abilities: [payoutAbility("LOCAL", "AED", free)],
    })
  const record = (outcome: BankTransfer.BankOutcome, merchantId = "M1"): BankTransfer.RecordBankOutcome => ({
    _tag: "RecordBankOutcome",
    merchantId,
    now: later,
    outcome,
  })
  const paid: BankTransfer.BankOutcome = { _tag: "Succeeded", bankReference: "FT1", arrivalTime: later }
  const bounced: BankTransfer.BankOutcome = { _tag: "Failed", failDes: "Beneficiary account closed" }
  const succeeded = stateAfter(aggregate, place(), record(paid))
  const failed = stateAfter(aggregate, place(), record(bounced))

  it.each<[string, BankTransfer.State, BankTransfer.Command, string, string]>([
    [
      "another request under a used merchantOrderNo",
      succeeded,
      place({ memo: "rent" }),
      "MERCHANT_ORDER_NO_EXIST",
      "merchantOrderNo P-1 is already a bank transfer with different parameters",
    ],
    [
      "a holder name and address of 141 characters",
      aggregate.initialState,
      place({}, { holderNameChars: 100, beneficiaryAddressChars: 41 }),
      "INVALID_PARAMETER",
      "holderName plus beneficiaryAddress must be at most 140 characters",
    ],
    [
      "an outcome for no transfer",
      aggregate.initialState,
      record(paid),
      "MERCHANT_ORDER_NO_NOT_EXIST",
      "merchantOrderNo names no bank transfer of this merchant",
    ],
    [
      "an outcome for another merchant's transfer",
      stateAfter(aggregate, place()),
      record(paid, "M2"),
      "MERCHANT_ORDER_NO_NOT_EXIST",
      "merchantOrderNo names no bank transfer of this merchant",
    ],
    [
      "a failure after a success",
      succeeded,
      record(bounced),
      "ORDER_SUCCESS",
      "bank transfer B0001 has already succeeded",
    ],
    ["a success after a failure", failed, record(paid), "ORDER_FAILURE", "bank transfer B0001 has already failed"],
  ])("%s", (_, state, command, code, detail) =>
    expect(refusalOf(aggregate, state, command)).toMatchObject({ code, detail }),
  )

  it("takes a holder name and address of exactly 140 characters", () =>
    expect(
      refusalOf(aggregate, aggregate.initialState, place({}, { holderNameChars: 100, beneficiaryAddressChars: 40 })),
    ).toBe("decided"))
})

describe("virtual-account deposit refusals", () => {
  const { aggregate } = VamDeposit
  const report = (
    deposit: Partial<VamDeposit.VamDepositReport> = {},
    merchantId = "M1",
  ): VamDeposit.RecordVamDeposit => ({
    _tag: "RecordVamDeposit",
    merchantId,
    now,
    deposit: { orderNo: "V0001", transactionTime: now, amountFils: fils(250_000), status: "PENDING", ...deposit },
  })
  const succeeded = stateAfter(aggregate, report({ status: "SUCCESS" }))
  const failed = stateAfter(aggregate, report({ status: "FAILED" }))

  it.each<[string, VamDeposit.State, VamDeposit.RecordVamDeposit, string, string]>([
    [
      "the same orderNo with another amount",
      succeeded,
      report({ status: "SUCCESS", amountFils: fils(1) }),
      "MERCHANT_ORDER_NO_EXIST",
      "deposit V0001 was reported before with other details",
    ],
    [
      "the same orderNo from another merchant",
      succeeded,
      report({ status: "SUCCESS" }, "M2"),
      "MERCHANT_ORDER_NO_EXIST",
      "deposit V0001 was reported before with other details",
    ],
    [
      "a failure after a success",
      succeeded,
      report({ status: "FAILED" }),
      "ORDER_SUCCESS",
      "deposit V0001 has already succeeded",
    ],
    [
      "a success after a failure",
      failed,
      report({ status: "SUCCESS" }),
      "ORDER_FAILURE",
      "deposit V0001 has already failed",
    ],
  ])("%s", (_, state, command, code, detail) =>
    expect(refusalOf(aggregate, state, command)).toMatchObject({ code, detail }),
  )
})

describe("member account refusals", () => {
  const { aggregate } = MemberAccount
  const open = openMemberAccount(now)
  const credit = (reference: string, amount: number) => creditMemberAccount(now, reference, amount)
  const opened = stateAfter(aggregate, open)

  it.each<[string, MemberAccount.State, MemberAccount.Command, string, string]>([
    [
      "opening again with another balance",
      opened,
      { ...open, openingBalanceFils: fils(0) },
      "OPENED_DIFFERENTLY",
      "the account is open already",
    ],
    [
      "a credit before the account opened",
      aggregate.initialState,
      credit("T1", 1),
      "NOT_OPEN",
      "no such member account",
    ],
    [
      "a reference credited with another amount",
      stateAfter(aggregate, open, credit("T1", 100)),
      credit("T1", 101),
      "REFERENCE_REUSED",
      "T1 was credited another amount",
    ],
    [
      "a credit a fils past AED 20,000",
      opened,
      credit("T1", 500_001),
      "BALANCE_LIMIT_EXCEEDED",
      "the balance would pass its limit",
    ],
  ])("%s", (_, state, command, reason, detail) =>
    expect(refusalOf(aggregate, state, command)).toMatchObject({ _tag: "MemberAccountRefusal", reason, detail }),
  )

  it("books a credit up to exactly AED 20,000", () =>
    expect(refusalOf(aggregate, opened, credit("T1", 500_000))).toBe("decided"))
})
