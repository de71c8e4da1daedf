import { type CodeName, Rejection } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Command, decide, evolve, initialState, invariants, type State } from "../src/acquiringOrder.ts"
import {
  type AcquiringModel,
  type AcquiringStep,
  acquiringOpening,
  acquiringStep,
  commandOf,
  emptyAcquiringModel,
  merchantId,
  type Outcome,
  predictAcquiring,
  viewOfModel,
  viewOfOrder,
} from "../src/testing/index.ts"

interface Real {
  state: State
}
interface Model {
  current: AcquiringModel
  /** The commands sent so far, for a repeat. */
  readonly sent: Array<Command>
}

const outcomeOf = (decided: ReturnType<typeof decide>): Outcome => {
  if (Result.isFailure(decided)) {
    expect(decided.failure).toBeInstanceOf(Rejection)
    return { kind: "refused", code: decided.failure.code }
  }
  return decided.success.length === 0 ? { kind: "nothing" } : { kind: "accepted" }
}

/** One step: the decider and the model take the same command; outcome, view and invariants must agree. */
class Step implements fc.Command<Model, Real> {
  readonly step: AcquiringStep
  constructor(step: AcquiringStep) {
    this.step = step
  }
  check = () => true
  run(model: Model, real: Real): void {
    const command: Command = commandOf(model.current, this.step, model.sent)
    model.sent.push(command)
    const predicted = predictAcquiring(model.current, command)
    const decided = decide(command, real.state)
    const outcome = outcomeOf(decided)
    expect(outcome, `${command._tag} ${JSON.stringify(command)}`).toEqual(predicted.outcome)
    if (Result.isSuccess(decided)) real.state = decided.success.reduce(evolve, real.state)
    model.current = predicted.model
    expect(viewOfOrder(real.state)).toEqual(viewOfModel(model.current))
    expect(invariants(real.state)).toEqual([])
  }
  toString = () => JSON.stringify(this.step)
}

const steps = fc.commands([acquiringStep.map((step) => new Step(step))], { maxCommands: 40, size: "max" })

const runModel = () =>
  fc.property(steps, (commands) =>
    fc.modelRun(
      () => ({ model: { current: emptyAcquiringModel(merchantId), sent: [] }, real: { state: initialState } }),
      commands,
    ),
  )

/** Every code the acquiring order decides: the random steps must reach each of them. */
const everyCode: ReadonlyArray<CodeName> = [
  "MERCHANT_ORDER_NO_NOT_EXIST",
  "MERCHANT_ORDER_NO_EXIST",
  "ORDER_PAID",
  "ORDER_SETTLED",
  "ORDER_FAILURE",
  "PAYSCENECODE_ILLEGAL",
  "EXPIREDTIME_LESS_THAN_REQUESTTIME",
  "EXPIREDTIME_TOO_LATER",
  "INVALID_PARAMETER",
  "RISK_FAIL",
  "ORDER_NOT_PAID",
  "ACQUIRE_ORDER_REFUNDED",
  "REVOKE_REJECTED",
  "REFUND_MERCHANT_ORDER_NO_EXIST",
  "ACQUIRE_ORDER_REVOKED",
  "INVALID_SECONDARY_MERCHANT",
  "REFUND_REJECTED",
  "REFUND_AMOUNT_EXCEEDED",
  "SHARING_MEMBER_NOT_EXIST",
  "REFUND_SHARING_MEMBER_MISMATCH",
  "ORDER_SUCCESS",
]

/** What the model answers to a whole run of steps, by code or by command and outcome. */
const outcomesOf = (opening: ReadonlyArray<AcquiringStep>, rest: ReadonlyArray<AcquiringStep>): Set<string> => {
  let model = emptyAcquiringModel(merchantId)
  const sent: Array<Command> = []
  const outcomes = new Set<string>()
  for (const step of [...opening, ...rest]) {
    const command = commandOf(model, step, sent)
    sent.push(command)
    const { outcome, model: next } = predictAcquiring(model, command)
    model = next
    outcomes.add(outcome.kind === "refused" ? outcome.code : `${command._tag} ${outcome.kind}`)
  }
  return outcomes
}

describe("the acquiring order against its reference model", () => {
  it("accepts within every limit and refuses past one with the model's code, balances agreeing after every step", () =>
    fc.assert(runModel(), { numRuns: 300 }))

  it("is driven to both sides of every rule: the steps reach every refusal and every acceptance", () => {
    // A property of the generator, so on a fixed seed: 1000 runs of the steps the property above draws.
    const reached = new Set<string>()
    const runs = fc.sample(fc.tuple(acquiringOpening, fc.array(acquiringStep, { minLength: 30, maxLength: 30 })), {
      numRuns: 1_000,
      seed: 1,
    })
    for (const [opening, rest] of runs) for (const outcome of outcomesOf(opening, rest)) reached.add(outcome)
    for (const code of everyCode) expect(reached).toContain(code)
    for (const tag of ["CreateOrder", "PayOrder", "ReserveRefund", "RevokeOrder", "ConfirmRefund", "ReleaseRefund"])
      expect(reached).toContain(`${tag} accepted`)
  })
})
