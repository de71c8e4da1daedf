import { Rejection } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decide, evolve, initialState, invariants, type State } from "../src/refundOrder.ts"
import { emptyRefundModel, predictRefund, type RefundOutcome, refundCommand } from "../src/testing/index.ts"
import { at, details, merchantId } from "./builders.ts"

const outcomeOf = (decided: ReturnType<typeof decide>): RefundOutcome => {
  if (Result.isFailure(decided)) {
    expect(decided.failure).toBeInstanceOf(Rejection)
    return { kind: "refused", code: decided.failure.code }
  }
  return decided.success.length === 0 ? { kind: "nothing" } : { kind: "accepted" }
}

const commands = fc.array(refundCommand(merchantId, details, at(3_600_000)), { minLength: 1, maxLength: 20 })

describe("the refund order against its reference model", () => {
  it("takes, repeats and refuses exactly what the model does, with its code, and ends in the model's status", () =>
    fc.assert(
      fc.property(commands, (sequence) => {
        let state: State = initialState
        let model = emptyRefundModel(merchantId)
        for (const command of sequence) {
          const decided = decide(command, state)
          const predicted = predictRefund(model, command)
          expect(outcomeOf(decided), command._tag).toEqual(predicted.outcome)
          if (Result.isSuccess(decided)) state = decided.success.reduce(evolve, state)
          model = predicted.model
          expect(state.status).toBe(model.status)
          expect(invariants(state)).toEqual([])
        }
      }),
      { numRuns: 300 },
    ))

  it("is driven to both sides of every rule: the commands reach every refusal and every move", () => {
    const reached = new Set<string>()
    for (const sequence of fc.sample(commands, { numRuns: 500, seed: 1 })) {
      let model = emptyRefundModel(merchantId)
      for (const command of sequence) {
        const { outcome, model: next } = predictRefund(model, command)
        reached.add(outcome.kind === "refused" ? outcome.code : `${command._tag} ${outcome.kind} ${next.status}`)
        model = next
      }
    }
    expect([...reached].sort()).toEqual([
      "CompleteRefund accepted SUCCESS",
      "CompleteRefund nothing SUCCESS",
      "CreateRefund accepted CREATED",
      "CreateRefund nothing CREATED",
      "CreateRefund nothing FAILURE",
      "CreateRefund nothing REFUNDED_SETTLED",
      "CreateRefund nothing SUCCESS",
      "FailRefund accepted FAILURE",
      "FailRefund nothing FAILURE",
      "INVALID_PARAMETER",
      "MERCHANT_ORDER_NO_NOT_EXIST",
      "ORDER_FAILURE",
      "ORDER_SUCCESS",
      "REFUND_MERCHANT_ORDER_NO_EXIST",
      "SettleRefund accepted REFUNDED_SETTLED",
      "SettleRefund nothing FAILURE",
      "SettleRefund nothing REFUNDED_SETTLED",
      "SettleRefund nothing SUCCESS",
    ])
  })
})
