import { Rejection, timestamp } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { WalletTransfer } from "../src/index.ts"
import { emptyWalletModel, predictWallet, type WalletOutcome, walletCommand } from "../src/testing/index.ts"

const { decide, evolve, initialState, invariants } = WalletTransfer

const outcomeOf = (decided: ReturnType<typeof decide>): WalletOutcome => {
  if (Result.isFailure(decided)) {
    expect(decided.failure).toBeInstanceOf(Rejection)
    return { kind: "refused", code: decided.failure.code }
  }
  return decided.success.length === 0 ? { kind: "nothing" } : { kind: "accepted" }
}

const commands = fc.array(walletCommand("M1", timestamp(Date.parse("2026-03-01T10:00:00Z"))), {
  minLength: 1,
  maxLength: 12,
})

describe("the wallet transfer against its reference model", () => {
  it("places, repeats, settles and refuses as the model does; fails past AED 10,000 and AED 20,000 with the model's failCode", () =>
    fc.assert(
      fc.property(commands, (sequence) => {
        let state: WalletTransfer.State = initialState
        let model = emptyWalletModel
        for (const command of sequence) {
          const decided = decide(command, state)
          const predicted = predictWallet(model, command)
          expect(outcomeOf(decided), JSON.stringify(command)).toEqual(predicted.outcome)
          if (Result.isSuccess(decided)) state = decided.success.reduce(evolve, state)
          model = predicted.model
          expect(state.status).toBe(model.status)
          if (state.status !== "ABSENT") expect(state.payerFeeAmount).toBe(model.payerFeeAmount)
          expect(state.status === "FAILURE" ? state.failCode : undefined).toBe(model.failCode)
          expect(invariants(state)).toEqual([])
        }
      }),
      { numRuns: 500 },
    ))

  it("is driven to both sides of every limit: each failCode, each refusal, and success at exactly AED 10,000 and AED 20,000", () => {
    const reached = new Set<string>()
    for (const sequence of fc.sample(commands, { numRuns: 2_000, seed: 1 })) {
      let model = emptyWalletModel
      for (const command of sequence) {
        const { outcome, model: next } = predictWallet(model, command)
        if (outcome.kind === "refused") reached.add(outcome.code)
        if (outcome.kind === "accepted") reached.add(next.failCode ?? next.status)
        if (command._tag === "PlaceWalletTransfer" && next.status === "CREATED" && outcome.kind === "accepted") {
          const { amount } = command.request
          const balance = command.beneficiary._tag === "MemberFound" ? command.beneficiary.balanceFils : 0
          if (amount === 1_000_000) reached.add("CREATED at exactly AED 10,000")
          if (balance + amount === 2_000_000) reached.add("CREATED to exactly AED 20,000")
        }
        model = next
      }
    }
    expect([...reached].sort()).toEqual([
      "BENEFICIARY_BALANCE_LIMIT_EXCEEDED",
      "BENEFICIARY_NAME_MISMATCH",
      "BENEFICIARY_NOT_FOUND",
      "CREATED",
      "CREATED at exactly AED 10,000",
      "CREATED to exactly AED 20,000",
      "INVALID_PARAMETER",
      "MERCHANT_ORDER_NO_EXIST",
      "MERCHANT_ORDER_NO_NOT_EXIST",
      "ORDER_FAILURE",
      "ORDER_SUCCESS",
      "SUCCESS",
      "TRANSFER_AMOUNT_LIMIT_EXCEEDED",
    ])
  })
})
