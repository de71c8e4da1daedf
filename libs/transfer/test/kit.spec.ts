/**
 * The transfer kit (`src/testing/*Histories.ts`, `laws.ts`): the histories
 * of the wallet transfer, the bank transfer and the member account keep
 * every law of the real aggregates, retries decide nothing, and each law
 * throws LawBroken on code or streams broken on purpose.
 */

import { test } from "@fast-check/vitest"
import { historyOf, lawBrokenBy } from "@mizan/eventsourcing/testing"
import { fils, timestamp } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "../src/index.ts"
import {
  bankTransferLifecycleHolds,
  bankTransferPlacement,
  bankTransferRetries,
  bankTransferRulesHold,
  creditMemberAccount,
  digestOf,
  memberAccountRetries,
  memberAccountRulesHold,
  memberCreditsAddUp,
  memberCreditsWithinLimit,
  openMemberAccount,
  placeWalletTransfer,
  retriesDecideNothing,
  validBankTransferHistories,
  validMemberAccountHistories,
  validVamDepositHistories,
  validWalletHistories,
  vamDepositLifecycleHolds,
  vamDepositRetries,
  vamDepositRulesHold,
  walletLifecycleHolds,
  walletLimitsHold,
  walletRetries,
  walletRulesHold,
} from "../src/testing/index.ts"

/** Every final status the histories reach on a fixed seed, and whether some command was refused. */
const reached = <
  H extends { state: { status: string }; steps: ReadonlyArray<{ decided: Result.Result<unknown, unknown> }> },
>(
  histories: fc.Arbitrary<H>,
) => {
  const sample = fc.sample(histories, { numRuns: 300, seed: 16 })
  return {
    statuses: new Set(sample.map((h) => h.state.status)),
    refused: sample.some((h) => h.steps.some((s) => Result.isFailure(s.decided))),
  }
}

const now = timestamp(Date.UTC(2026, 2, 1, 10))

describe("the wallet transfer histories", () => {
  test.prop([validWalletHistories], { numRuns: 200 })(
    "keep the rules, the AED 10,000 and AED 20,000 limits and the lifecycle after every event",
    (history) => {
      expect(walletRulesHold(history.appends)).toEqual(history.state)
      walletLimitsHold(history.appends)
      walletLifecycleHolds(history.events)
    },
  )

  it("reach every status, and refusals, on a fixed seed", () => {
    expect(reached(validWalletHistories)).toEqual({
      statuses: new Set(["CREATED", "SUCCESS", "FAILURE", "ABSENT"]),
      refused: true,
    })
  })

  test.prop([walletRetries], { numRuns: 200 })("decide nothing new for a retry, however late", (history) => {
    retriesDecideNothing(WalletTransfer.aggregate)(history.commands)
  })

  const placed = historyOf(WalletTransfer.aggregate)([
    placeWalletTransfer({
      now,
      beneficiaryIdentity: digestOf(7),
      beneficiary: { _tag: "MemberFound", fullName: digestOf(1), balanceFils: fils(1_000_000) },
    }),
  ]).events

  it("walletLimitsHold names a placement written past AED 10,000", () => {
    const [first] = placed
    if (first?._tag !== "WalletTransferPlaced") throw new Error("the placement was refused")
    expect(walletLimitsHold(placed).status).toBe("CREATED")
    expect(lawBrokenBy(() => walletLimitsHold([{ ...first, amountFils: fils(1_000_001) }]))).toMatchObject({
      name: "LawBroken",
      rule: "a transfer that did not fail carries at most AED 10,000",
      step: 1,
      what: "WalletTransferPlaced",
    })
    expect(lawBrokenBy(() => walletLimitsHold([{ ...first, beneficiaryBalanceFils: fils(1_900_001) }]))).toMatchObject({
      rule: "a transfer that did not fail takes a found beneficiary to at most AED 20,000",
    })
  })

  it("walletLifecycleHolds names a failed transfer that a broken decider credits", () => {
    const creditsAnyway: typeof WalletTransfer.aggregate = {
      ...WalletTransfer.aggregate,
      decide: (command, state) =>
        command._tag === "SettleWalletTransfer" && state.status === "FAILURE"
          ? Result.succeed([{ _tag: "WalletTransferSucceeded", at: command.now }])
          : WalletTransfer.aggregate.decide(command, state),
    }
    const settle = (credited: boolean): WalletTransfer.Command => ({
      _tag: "SettleWalletTransfer",
      merchantId: "M1",
      now,
      outcome: credited ? { _tag: "Credited" } : { _tag: "NotCredited", failCode: "BENEFICIARY_NOT_FOUND" },
    })
    const history = historyOf(creditsAnyway)([
      placeWalletTransfer({
        now,
        beneficiaryIdentity: digestOf(7),
        beneficiary: { _tag: "MemberFound", fullName: digestOf(1), balanceFils: fils(0) },
      }),
      settle(false),
      settle(true),
    ])
    expect(lawBrokenBy(() => walletLifecycleHolds(history.events))).toMatchObject({
      name: "LawBroken",
      law: "the wallet transfer's lifecycle holds",
      step: 3,
      what: "WalletTransferSucceeded",
      detail: "FAILURE → SUCCESS",
    })
  })
})

describe("the bank transfer histories", () => {
  test.prop([validBankTransferHistories], { numRuns: 200 })(
    "keep the payout's agreement with its rate and fee, and the lifecycle, after every event",
    (history) => {
      expect(bankTransferRulesHold(history.appends)).toEqual(history.state)
      bankTransferLifecycleHolds(history.events)
    },
  )

  it("reach every status, and refusals, on a fixed seed", () => {
    expect(reached(validBankTransferHistories)).toEqual({
      statuses: new Set(["ABSENT", "CREATED", "SUCCESS", "FAILURE"]),
      refused: true,
    })
  })

  test.prop([bankTransferRetries], { numRuns: 200 })("decide nothing new for a retry, however late", (history) => {
    retriesDecideNothing(BankTransfer.aggregate)(history.commands)
  })

  test.prop([bankTransferPlacement], { numRuns: 50 })(
    "bankTransferRulesHold names a placement written with a fee its plan does not give",
    (command) => {
      const [placed] = historyOf(BankTransfer.aggregate)([command]).events
      fc.pre(placed?._tag === "BankTransferPlaced")
      if (placed?._tag !== "BankTransferPlaced") return
      expect(
        lawBrokenBy(() => bankTransferRulesHold([{ ...placed, payerFeeFils: fils(placed.payerFeeFils + 1) }])),
      ).toMatchObject({ name: "LawBroken", law: "the bank transfer's rules hold", step: 1 })
    },
  )
})

describe("the member account histories", () => {
  test.prop([validMemberAccountHistories], { numRuns: 200 })(
    "keep the balance the sum of the credits, each once, and within the limit each states",
    (history) => {
      expect(memberAccountRulesHold(history.appends)).toEqual(history.state)
      memberCreditsAddUp(history.events)
      memberCreditsWithinLimit(history)
    },
  )

  it("reach credits refused for the limit, for a reused reference and before opening, on a fixed seed", () => {
    const reasons = new Set(
      fc
        .sample(validMemberAccountHistories, { numRuns: 300, seed: 16 })
        .flatMap((h) => h.steps.flatMap((s) => (Result.isFailure(s.decided) ? [s.decided.failure.reason] : []))),
    )
    expect(reasons).toEqual(new Set(["NOT_OPEN", "OPENED_DIFFERENTLY", "REFERENCE_REUSED", "BALANCE_LIMIT_EXCEEDED"]))
  })

  test.prop([memberAccountRetries], { numRuns: 200 })("decide nothing new for a retry, however late", (history) => {
    retriesDecideNothing(MemberAccount.aggregate)(history.commands)
  })

  const open = openMemberAccount(now)
  const credit = (reference: string, amount: number) => creditMemberAccount(now, reference, amount)

  it("memberCreditsWithinLimit names the credit a decider that ignores the limit took", () => {
    const ignoresLimit: typeof MemberAccount.aggregate = {
      ...MemberAccount.aggregate,
      decide: (command, state) =>
        MemberAccount.aggregate.decide(
          command._tag === "CreditMemberAccount" ? { ...command, balanceMaxFils: fils(99_999_999_999_999) } : command,
          state,
        ),
    }
    const history = historyOf(ignoresLimit)([open, credit("T1", 400_000), credit("T2", 100_001)])
    expect(lawBrokenBy(() => memberCreditsWithinLimit(history))).toMatchObject({
      name: "LawBroken",
      step: 3,
      what: "CreditMemberAccount",
      detail: "2000001 > 2000000",
    })
    memberCreditsWithinLimit(historyOf(MemberAccount.aggregate)(history.commands))
  })

  it("memberCreditsAddUp names a credit whose balance is not the sum, and a reference credited twice", () => {
    const events = historyOf(MemberAccount.aggregate)([open, credit("T1", 400_000)]).events
    const [opened, credited] = events
    if (opened === undefined || credited?._tag !== "MemberAccountCredited") throw new Error("the credit was refused")
    memberCreditsAddUp(events)
    expect(
      lawBrokenBy(() => memberCreditsAddUp([opened, { ...credited, balanceAfterFils: fils(400_000) }])),
    ).toMatchObject({
      name: "LawBroken",
      rule: "the balance after a credit is the balance before plus the credit",
      step: 2,
    })
    expect(lawBrokenBy(() => memberCreditsAddUp([opened, credited, credited]))).toMatchObject({
      rule: "a reference is credited once",
      step: 3,
    })
  })
})

describe("the virtual-account deposit histories", () => {
  test.prop([validVamDepositHistories], { numRuns: 200 })(
    "keep the rules and the lifecycle after every event",
    (history) => {
      expect(vamDepositRulesHold(history.appends)).toEqual(history.state)
      vamDepositLifecycleHolds(history.events)
    },
  )

  it("reach every status, and refusals of each kind, on a fixed seed", () => {
    const sample = fc.sample(validVamDepositHistories, { numRuns: 300, seed: 16 })
    expect(new Set(sample.map((h) => h.state.status))).toEqual(new Set(["PENDING", "SUCCESS", "FAILED"]))
    const codes = new Set(
      sample.flatMap((h) => h.steps.flatMap((s) => (Result.isFailure(s.decided) ? [s.decided.failure.code] : []))),
    )
    expect(codes).toEqual(new Set(["MERCHANT_ORDER_NO_EXIST", "ORDER_SUCCESS", "ORDER_FAILURE"]))
  })

  test.prop([vamDepositRetries], { numRuns: 200 })("decide nothing new for a redelivered report", (history) => {
    retriesDecideNothing(VamDeposit.aggregate)(history.commands)
  })

  it("vamDepositLifecycleHolds names a deposit that a broken decider moved from SUCCESS to FAILED", () => {
    const reopens: typeof VamDeposit.aggregate = {
      ...VamDeposit.aggregate,
      decide: (command, state) =>
        state.status === "SUCCESS" && command.deposit.status === "FAILED"
          ? Result.succeed([
              {
                _tag: "VamDepositSettled",
                status: "FAILED",
                transactionTime: command.deposit.transactionTime,
                at: command.now,
              },
            ])
          : VamDeposit.aggregate.decide(command, state),
    }
    const report = (status: VamDeposit.DepositStatus): VamDeposit.Command => ({
      _tag: "RecordVamDeposit",
      merchantId: "M1",
      now,
      deposit: { orderNo: "D-1", transactionTime: now, amountFils: fils(250_000), status },
    })
    const history = historyOf(reopens)([report("PENDING"), report("SUCCESS"), report("FAILED")])
    expect(lawBrokenBy(() => vamDepositLifecycleHolds(history.events))).toMatchObject({
      name: "LawBroken",
      step: 3,
      what: "VamDepositSettled",
      detail: "SUCCESS → FAILED",
    })
  })
})
