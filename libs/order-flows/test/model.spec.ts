/**
 * The refund flows against the reference models of @mizan/acquiring and
 * @mizan/refund: random steps on one order, run through the real flows on the
 * memory store and through the models, must agree on every answer (which
 * request is taken, which refused with which code) and on the balances and
 * refund statuses after each step.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import {
  type AcquiringModel,
  type AcquiringStep,
  acquiringOpening,
  acquiringStep,
  commandOf,
  emptyAcquiringModel,
  merchantId,
  merchantOrderNo,
  predictAcquiring,
  viewOfModel,
  viewOfOrder,
} from "@mizan/acquiring/testing"
import { EventStore, handleCommand, loadAggregate, makeMemoryEventStore } from "@mizan/eventsourcing"
import { fils, type Rejection, type Timestamp } from "@mizan/kernel"
import { RefundOrder } from "@mizan/refund"
import { emptyRefundModel, predictRefund, type RefundModel } from "@mizan/refund/testing"
import { Effect, Exit } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Flows from "../src/index.ts"

const acquiringStream = AcquiringOrder.streamId(merchantId, merchantOrderNo)

/** The refund orders by stream: a merchant's by its refund number, the revoke's by the order's number. */
const refundKey = (refundMerchantOrderNo: string, cause: RefundOrder.RefundCause) =>
  RefundOrder.streamId(merchantId, refundMerchantOrderNo, cause)

interface Model {
  order: AcquiringModel
  refunds: Map<string, RefundModel>
  readonly sent: Array<AcquiringOrder.Command>
}

/** What a flow answers: done, or the code of the rejection that ended it. */
type FlowOutcome = { readonly kind: "done" } | { readonly kind: "refused"; readonly code: string }

const done: FlowOutcome = { kind: "done" }

/** A refund order created from a reservation: its details come from the order, so only its lifecycle matters here. */
const created = (amountFils: number, now: Timestamp): RefundOrder.Command => ({
  _tag: "CreateRefund",
  merchantId,
  now,
  orderNo: "SVC",
  details: {
    cause: "REQUEST",
    originMerchantOrderNo: merchantOrderNo,
    originOrderNo: "SVC",
    refundMerchantOrderNo: "R",
    amountFils: fils(amountFils),
    payeeRefundFils: fils(amountFils),
    feeRefundedFils: fils(0),
    sharingInfoList: [],
  },
})

/** Runs an acquiring command in the model; a refusal ends the flow with its code. */
const onModelOrder = (model: Model, command: AcquiringOrder.Command): FlowOutcome => {
  const { outcome, model: next } = predictAcquiring(model.order, command)
  model.order = next
  return outcome.kind === "refused" ? outcome : done
}

/** The refund order of every reservation that has none yet, as the flow creates it. */
const createRefundOrders = (model: Model, now: Timestamp) => {
  for (const refund of model.order.order?.refunds ?? []) {
    const key = refundKey(refund.cause === "REVOKE" ? merchantOrderNo : refund.refundMerchantOrderNo, refund.cause)
    if (!model.refunds.has(key))
      model.refunds.set(key, predictRefund(emptyRefundModel(merchantId), created(refund.amount, now)).model)
  }
}

/** What the flows should answer to a step, by the models. */
const predictFlow = (model: Model, command: AcquiringOrder.Command): FlowOutcome => {
  switch (command._tag) {
    case "ReserveRefund": {
      // The flow reads the order first, closing it if it expired.
      onModelOrder(model, { _tag: "ExpireOrder", merchantId, now: command.now })
      const outcome = onModelOrder(model, command)
      if (outcome.kind === "done") createRefundOrders(model, command.now)
      return outcome
    }
    case "RevokeOrder": {
      const outcome = onModelOrder(model, command)
      if (outcome.kind === "done") createRefundOrders(model, command.now)
      return outcome
    }
    case "ConfirmRefund":
    case "ReleaseRefund":
      return predictEnd(model, command)
    default:
      return onModelOrder(model, command)
  }
}

/** The reservation a refund order number names, and its refund order's stream. */
const reservationOf = (model: Model, refundOrderNo: string) => {
  const reservation = model.order.order?.refunds.find((r) => r.refundOrderNo === refundOrderNo)
  if (reservation === undefined) return undefined
  const key = refundKey(
    reservation.cause === "REVOKE" ? merchantOrderNo : reservation.refundMerchantOrderNo,
    reservation.cause,
  )
  return { reservation, key }
}

/** The end of a refund: its refund order first, then the reservation confirmed or released. */
const predictEnd = (
  model: Model,
  command: Extract<AcquiringOrder.Command, { _tag: "ConfirmRefund" | "ReleaseRefund" }>,
) => {
  const found = reservationOf(model, command.refundOrderNo)
  const refund = found === undefined ? undefined : model.refunds.get(found.key)
  if (found === undefined || refund === undefined)
    return { kind: "refused", code: "MERCHANT_ORDER_NO_NOT_EXIST" } as const
  const end: RefundOrder.Command =
    command._tag === "ConfirmRefund"
      ? { _tag: "CompleteRefund", merchantId, now: command.now }
      : { _tag: "FailRefund", merchantId, now: command.now, failCode: "BANK_REJECTED", failDes: "refused" }
  const { outcome, model: next } = predictRefund(refund, end)
  if (outcome.kind === "refused") return outcome
  model.refunds.set(found.key, next)
  if (next.status === "SUCCESS")
    return onModelOrder(model, {
      _tag: "ConfirmRefund",
      merchantId,
      now: command.now,
      refundOrderNo: command.refundOrderNo,
    })
  if (next.status === "FAILURE")
    return onModelOrder(model, {
      _tag: "ReleaseRefund",
      merchantId,
      now: command.now,
      refundOrderNo: command.refundOrderNo,
      reason: "refused",
    })
  return done
}

/** The stream of the refund order a reservation's number names, from the real order. */
const refundStreamOfOrderNo = (model: Model, refundOrderNo: string) =>
  reservationOf(model, refundOrderNo)?.key ?? refundKey("NO-SUCH-REFUND", "REQUEST")

/** The real flow a step stands for. */
const runFlow = (model: Model, command: AcquiringOrder.Command): Effect.Effect<unknown, unknown, EventStore> => {
  switch (command._tag) {
    case "ReserveRefund": {
      const reserve: AcquiringOrder.ReserveRefund = command
      return Flows.requestRefund({
        merchantId,
        acquiringStream,
        request: reserve.request,
        now: reserve.now,
        refundOrderNo: reserve.refundOrderNo,
      })
    }
    case "RevokeOrder":
      return Flows.revokeOrder({ merchantId, acquiringStream, now: command.now, refundOrderNo: command.refundOrderNo })
    case "ConfirmRefund":
    case "ReleaseRefund":
      return Flows.endRefund(
        refundStreamOfOrderNo(model, command.refundOrderNo),
        command._tag === "ConfirmRefund"
          ? { _tag: "CompleteRefund" }
          : { _tag: "FailRefund", failCode: "BANK_REJECTED", failDes: "refused" },
        command.now,
      )
    default:
      return handleCommand(AcquiringOrder.aggregate, acquiringStream, command)
  }
}

const outcomeOfExit = (exit: Exit.Exit<unknown, unknown>): FlowOutcome => {
  if (Exit.isSuccess(exit)) return done
  const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (failure === undefined) throw new Error(`the flow died: ${String(exit.cause)}`)
  return { kind: "refused", code: (failure.error as Rejection).code }
}

class FlowStep implements fc.AsyncCommand<Model, EventStore["Service"]> {
  readonly step: AcquiringStep
  constructor(step: AcquiringStep) {
    this.step = step
  }
  check = () => true
  run(model: Model, store: EventStore["Service"]): Promise<void> {
    const command = commandOf(model.order, this.step, model.sent)
    model.sent.push(command)
    // The real flow is decided on the model as it was; the model then moves.
    const flow = runFlow(model, command)
    const predicted = predictFlow(model, command)
    // fast-check's model run awaits each step: the step is one effect, run to a promise.
    return Effect.runPromise(
      Effect.gen(function* () {
        const exit = yield* Effect.exit(flow)
        expect(outcomeOfExit(exit), `${command._tag} ${JSON.stringify(command)}`).toEqual(predicted)
        const order = yield* loadAggregate(AcquiringOrder.aggregate, acquiringStream)
        expect(viewOfOrder(order.state)).toEqual(viewOfModel(model.order))
        for (const [stream, refund] of model.refunds) {
          const real = yield* loadAggregate(RefundOrder.aggregate, stream)
          expect(real.state.status, stream).toBe(refund.status)
        }
      }).pipe(Effect.provideService(EventStore, store)),
    )
  }
  toString = () => JSON.stringify(this.step)
}

const flowSteps = fc
  .tuple(acquiringOpening, fc.commands([acquiringStep.map((s) => new FlowStep(s))], { maxCommands: 25, size: "max" }))
  .map(([opening, commands]) => [...opening.map((s) => new FlowStep(s)), ...commands])

describe("the refund flows against the reference models", () => {
  it("answer every request as the models do, and leave the order and its refund orders where the models say", () =>
    fc.assert(
      fc.asyncProperty(flowSteps, (steps) =>
        fc.asyncModelRun(
          () => ({
            model: { order: emptyAcquiringModel(merchantId), refunds: new Map(), sent: [] },
            real: makeMemoryEventStore(),
          }),
          steps,
        ),
      ),
      { numRuns: 60 },
    ))
})
