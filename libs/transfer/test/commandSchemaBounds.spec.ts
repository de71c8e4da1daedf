/**
 * The transfer commands' schemas as the gateway decodes them: each command
 * under its own tag, the values the spec lists (identity types, deposit
 * statuses, credit failures, bank outcomes), and the clear lengths measured at
 * the edge (a holder name has at least one character, an address none or
 * more).
 */
import { fils, issueMessage } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "../src/index.ts"
import { placeBankTransfer, placeWalletTransfer } from "../src/testing/index.ts"
import { at, sha256 } from "./support.ts"

const now = at("2026-03-01T10:00:00Z")

/** "accepted", or the refusal's message (field path first). */
const verdict = (schema: Schema.Top, input: unknown): string => {
  const decoded = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)(input)
  return Result.isFailure(decoded) ? issueMessage(decoded.failure.issue) : "accepted"
}

const wallet = placeWalletTransfer({
  now,
  beneficiaryIdentity: sha256("+971501234567"),
  beneficiary: { _tag: "MemberFound", fullName: sha256("AISHA"), balanceFils: fils(0) },
})
const walletWith = (request: Record<string, unknown>) => ({ ...wallet, request: { ...wallet.request, ...request } })
const settleWallet = (outcome: unknown) => ({ _tag: "SettleWalletTransfer", merchantId: "M1", now, outcome })

const bank = placeBankTransfer({
  now,
  holderName: sha256("A"),
  iban: sha256("I"),
  clearLengths: { holderNameChars: 1, beneficiaryAddressChars: 0 },
  abilities: [],
})
const bankOutcome = (outcome: unknown) => ({ _tag: "RecordBankOutcome", merchantId: "M1", now, outcome })

const deposit = (status: string) => ({
  _tag: "RecordVamDeposit",
  merchantId: "M1",
  now,
  deposit: { orderNo: "V1", transactionTime: now, amountFils: fils(1), status },
})

describe("wallet transfer commands", () => {
  it.each<[string, unknown, string]>([
    ["a phone number beneficiary", walletWith({ beneficiaryIdentityType: "PHONE_NO" }), "accepted"],
    ["a member id beneficiary", walletWith({ beneficiaryIdentityType: "MEMBER_ID" }), "accepted"],
    [
      "an e-mail beneficiary",
      walletWith({ beneficiaryIdentityType: "EMAIL" }),
      'request.beneficiaryIdentityType must be "PHONE_NO" or "MEMBER_ID"',
    ],
    ["no member found", { ...wallet, beneficiary: { _tag: "MemberNotFound" } }, "accepted"],
    ["a credit", settleWallet({ _tag: "Credited" }), "accepted"],
    [
      "a credit refused for no member",
      settleWallet({ _tag: "NotCredited", failCode: "BENEFICIARY_NOT_FOUND" }),
      "accepted",
    ],
    [
      "a credit refused for the balance limit",
      settleWallet({ _tag: "NotCredited", failCode: "BENEFICIARY_BALANCE_LIMIT_EXCEEDED" }),
      "accepted",
    ],
    [
      "a credit refused for a reason the directory cannot give",
      settleWallet({ _tag: "NotCredited", failCode: "TRANSFER_AMOUNT_LIMIT_EXCEEDED" }),
      'outcome.failCode must be "BENEFICIARY_NOT_FOUND" or "BENEFICIARY_BALANCE_LIMIT_EXCEEDED"',
    ],
  ])("%s: %s", (_, input, expected) => expect(verdict(WalletTransfer.Command, input)).toBe(expected))

  it("records every failure code the wallet decides in its FAILURE event", () => {
    for (const failCode of [
      "TRANSFER_AMOUNT_LIMIT_EXCEEDED",
      "BENEFICIARY_NOT_FOUND",
      "BENEFICIARY_NAME_MISMATCH",
      "BENEFICIARY_BALANCE_LIMIT_EXCEEDED",
    ])
      expect(verdict(WalletTransfer.Event, { _tag: "WalletTransferFailed", failCode, failDes: "why", at: now })).toBe(
        "accepted",
      )
    expect(
      verdict(WalletTransfer.Event, { _tag: "WalletTransferFailed", failCode: "LOST", failDes: "why", at: now }),
    ).toContain("failCode")
  })
})

describe("bank transfer commands", () => {
  it.each<[string, unknown, string]>([
    ["a placement", bank, "accepted"],
    [
      "a holder name of no characters",
      { ...bank, clearLengths: { holderNameChars: 0, beneficiaryAddressChars: 0 } },
      "clearLengths.holderNameChars",
    ],
    [
      "an address of fewer than no characters",
      { ...bank, clearLengths: { holderNameChars: 1, beneficiaryAddressChars: -1 } },
      "clearLengths.beneficiaryAddressChars",
    ],
    ["a success", bankOutcome({ _tag: "Succeeded", bankReference: "FT1", arrivalTime: now }), "accepted"],
    ["a failure", bankOutcome({ _tag: "Failed", failDes: "closed" }), "accepted"],
    ["an outcome the bank does not give", bankOutcome({ _tag: "Pending" }), "outcome"],
  ])("%s: %s", (_, input, expected) => expect(verdict(BankTransfer.Command, input)).toContain(expected))
})

describe("deposit and member account commands", () => {
  it.each(["PENDING", "SUCCESS", "FAILED"])("a deposit reported %s", (status) =>
    expect(verdict(VamDeposit.Command, deposit(status))).toBe("accepted"),
  )

  it("refuses a deposit status the bank does not report", () =>
    expect(verdict(VamDeposit.Command, deposit("REVERSED"))).toBe(
      'deposit.status must be "PENDING", "SUCCESS" or "FAILED"',
    ))

  it.each<[string, unknown]>([
    [
      "OpenMemberAccount",
      {
        _tag: "OpenMemberAccount",
        memberIdDigest: sha256("1"),
        phoneNoDigest: sha256("2"),
        fullName: sha256("3"),
        openingBalanceFils: 0,
        now,
      },
    ],
    [
      "CreditMemberAccount",
      { _tag: "CreditMemberAccount", reference: "T1", amountFils: 1, balanceMaxFils: 2_000_000, now },
    ],
  ])("decodes %s under its tag only", (_, input) => {
    expect(verdict(MemberAccount.Command, input)).toBe("accepted")
    expect(verdict(MemberAccount.Command, { ...(input as object), _tag: "Other" })).not.toBe("accepted")
  })
})
