/**
 * The refund kit (`src/testing/histories.ts`, `laws.ts`): its histories
 * keep every law of the real refund order, the refund orders a race of
 * refunds leaves stay within what was paid, and each law throws LawBroken on
 * code broken on purpose.
 */

import { test } from "@fast-check/vitest"
import { AcquiringOrder, refundDetails } from "@mizan/acquiring"
import { concurrentRefunds, raceDecidedInOrder } from "@mizan/acquiring/testing"
import { fold } from "@mizan/eventsourcing"
import { historyOf, lawBrokenBy } from "@mizan/eventsourcing/testing"
import { fils } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Command, type Event, aggregate as refundOrder } from "../src/refundOrder.ts"
import {
  LawBroken,
  refundLifecycleHolds,
  refundRetries,
  refundRulesHold,
  refundsWithinPaid,
  retriesDecideNothing,
  validRefundDetails,
  validRefundHistories,
} from "../src/testing/index.ts"
import { completeRefund, createRefund, details, failRefund } from "./builders.ts"

describe("the refund histories", () => {
  test.prop([validRefundHistories], { numRuns: 200 })(
    "keep the refund order's rules and its lifecycle after every event",
    (history) => {
      expect(refundRulesHold(history.events)).toEqual(history.state)
      refundLifecycleHolds(history.events)
    },
  )

  it("reach every status on a fixed seed, and refusals", () => {
    const histories = fc.sample(validRefundHistories, { numRuns: 300, seed: 16 })
    expect(new Set(histories.map((h) => h.state.status))).toEqual(
      new Set(["ABSENT", "CREATED", "REFUNDED_SETTLED", "SUCCESS", "FAILURE"]),
    )
    expect(histories.some((h) => h.steps.some((s) => Result.isFailure(s.decided)))).toBe(true)
  })

  test.prop([validRefundDetails], { numRuns: 200 })("are made of details whose parts sum to the amount", (d) => {
    const parts =
      d.payeeRefundFils + d.feeRefundedFils + d.sharingInfoList.reduce((a, m) => a + m.sharingSettledAmountFils, 0)
    expect(parts).toBe(d.amountFils)
    expect(d.payeeRefundFils).toBeGreaterThanOrEqual(0)
  })

  test.prop([refundRetries], { numRuns: 200 })("decide nothing new for a retry, however late", (history) => {
    retriesDecideNothing(refundOrder)(history.commands)
  })
})

describe("refundsWithinPaid", () => {
  test.prop([concurrentRefunds], { numRuns: 100 })(
    "holds for the refund orders created from the reservations a race of refunds leaves",
    (race) => {
      const { state: order } = raceDecidedInOrder(race)
      if (!AcquiringOrder.isOrder(order)) throw new Error("the race's order was not created")
      const refunds = order.refunds.map(
        (reservation) =>
          historyOf(refundOrder)([
            { ...createRefund(), orderNo: reservation.refundOrderNo, details: refundDetails(order, reservation) },
          ]).state,
      )
      expect(refunds.length).toBeGreaterThan(0)
      refundsWithinPaid(race.paidFils)(refunds)
    },
  )

  it("names the refund order that a service created without reserving it first", () => {
    const refunds = [4_000, 4_000, 4_000].map((amount, i) =>
      fold(refundOrder, [
        {
          _tag: "RefundCreated",
          merchantId: "M0001",
          orderNo: `SVC-${i}`,
          details: {
            ...details,
            refundMerchantOrderNo: `R${i}`,
            amountFils: fils(amount),
            payeeRefundFils: fils(amount),
            feeRefundedFils: fils(0),
            sharingInfoList: [],
          },
          createdAt: createRefund().now,
        },
      ]),
    )
    expect(lawBrokenBy(() => refundsWithinPaid(10_000)(refunds))).toMatchObject({
      name: "LawBroken",
      step: 3,
      what: "R2",
      detail: "12000 asked back of 10000 paid",
    })
    refundsWithinPaid(12_000)(refunds)
  })
})

describe("the laws catch broken code", () => {
  it("refundLifecycleHolds names a succeeded refund that a broken decider failed", () => {
    // A decider that lets the bank's late failure report overturn a SUCCESS.
    const overturns: typeof refundOrder = {
      ...refundOrder,
      decide: (command, state) =>
        command._tag === "FailRefund" && state.status === "SUCCESS"
          ? Result.succeed([
              { _tag: "RefundFailed", failCode: command.failCode, failDes: command.failDes, failedAt: command.now },
            ])
          : refundOrder.decide(command, state),
    }
    const commands: ReadonlyArray<Command> = [createRefund(), completeRefund(), failRefund()]
    const history = historyOf(overturns)(commands)
    const broken = lawBrokenBy(() => refundLifecycleHolds(history.events))
    expect(broken).toBeInstanceOf(LawBroken)
    expect(broken).toMatchObject({
      law: "the refund lifecycle holds",
      step: 4,
      what: "RefundFailed",
      detail: "SUCCESS → FAILURE",
    })
    expect(lawBrokenBy(() => refundLifecycleHolds(historyOf(refundOrder)(commands).events))).toBeUndefined()
  })

  it("refundRulesHold names a refund order written with parts that miss its amount", () => {
    const created = historyOf(refundOrder)([createRefund()]).events
    const [first] = created
    if (first?._tag !== "RefundCreated") throw new Error("the refund was refused")
    const copied: ReadonlyArray<Event> = [
      { ...first, details: { ...first.details, feeRefundedFils: fils(first.details.feeRefundedFils + 1) } },
    ]
    expect(lawBrokenBy(() => refundRulesHold(copied))).toMatchObject({
      name: "LawBroken",
      rule: "the refund's parts sum to its amount",
      step: 1,
      what: "RefundCreated",
    })
  })

  it("retriesDecideNothing names a completion a decider takes twice", () => {
    const twice: typeof refundOrder = {
      ...refundOrder,
      decide: (command, state) =>
        command._tag === "CompleteRefund" && state.status === "SUCCESS"
          ? Result.succeed([{ _tag: "RefundSucceeded", succeededAt: command.now }])
          : refundOrder.decide(command, state),
    }
    const complete = completeRefund()
    expect(lawBrokenBy(() => retriesDecideNothing(twice)([createRefund(), complete, complete]))).toMatchObject({
      name: "LawBroken",
      step: 3,
      what: "CompleteRefund",
    })
  })
})
