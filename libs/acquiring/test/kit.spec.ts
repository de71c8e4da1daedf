/**
 * The acquiring kit (`src/testing/histories.ts`, `laws.ts`) as a platform
 * team uses it: its histories keep every law of the real order, its
 * concurrent refunds raced through the real command handler keep the refund
 * limit, and each law throws LawBroken on code broken on purpose.
 */

import { describe, expect, it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { handleCommand } from "@mizan/eventsourcing"
import { historyOf, lawBrokenBy, racingStore } from "@mizan/eventsourcing/testing"
import { fils } from "@mizan/kernel"
import { Effect, Exit, Result } from "effect"
import fc from "fast-check"
import {
  aggregate as acquiringOrder,
  streamId as acquiringStreamId,
  type Command,
  type Event,
  evolve,
  isOrder,
  remainRefundFils,
} from "../src/acquiringOrder.ts"
import { AcquiringOrder } from "../src/index.ts"
import {
  acquiringRetries,
  acquiringRulesHold,
  type ConcurrentRefunds,
  concurrentRefunds,
  createOrder,
  LawBroken,
  payOrder,
  readEvents,
  refundLimitHolds,
  reserveRefund,
  retriesDecideNothing,
  validAcquiringHistories,
} from "../src/testing/index.ts"

describe("the acquiring histories", () => {
  test.prop([validAcquiringHistories], { numRuns: 150 })(
    "keep the order's rules and the refund limit after every event",
    (history) => {
      expect(acquiringRulesHold(history.events)).toEqual(history.state)
      refundLimitHolds(history.events)
    },
  )

  it("reach refunds, refusals and every final status on a fixed seed", () => {
    const histories = fc.sample(validAcquiringHistories, { numRuns: 300, seed: 16 })
    const tags = new Set(histories.flatMap((h) => h.events.map((e) => e._tag)))
    for (const tag of [
      "OrderPaid",
      "RefundReserved",
      "RefundConfirmed",
      "RefundReleased",
      "OrderSettled",
      "OrderRevoked",
    ])
      expect(tags, tag).toContain(tag)
    expect(histories.some((h) => h.steps.some((s) => Result.isFailure(s.decided)))).toBe(true)
    expect(new Set(histories.map((h) => h.state.status))).toEqual(
      new Set(["ABSENT", "CREATED", "PAID_SUCCESS", "SETTLED", "FAILURE"]),
    )
  })

  test.prop([acquiringRetries], { numRuns: 150 })("decide nothing new for a retry, however late", (history) => {
    retriesDecideNothing(acquiringOrder)(history.commands)
  })
})

/** Sends the race's opening, then every refund at once, as from processes of their own (`racingStore`): a real race. */
const race = ({ opening, refunds }: ConcurrentRefunds) => {
  const { layer, lostRaces } = racingStore()
  return Effect.gen(function* () {
    const stream = acquiringStreamId(opening[0].merchantId, opening[0].request.merchantOrderNo)
    for (const command of opening) yield* handleCommand(acquiringOrder, stream, command)
    const answers = yield* Effect.all(
      refunds.map((refund) => Effect.exit(handleCommand(acquiringOrder, stream, refund))),
      { concurrency: "unbounded" },
    )
    // Read back as a platform's test reads its own order's stream.
    const events = yield* readEvents(AcquiringOrder, opening[0].merchantId, opening[0].request.merchantOrderNo)
    return { answers, events, lostRaces: lostRaces() }
  }).pipe(Effect.provide(layer))
}

describe("concurrent refunds", () => {
  test.prop([concurrentRefunds], { numRuns: 60 })(
    "raced through the real handler keep the refund limit, and refuse only what no longer fits",
    // fast-check drives this loop, so each run is a promise of its own.
    async (generated) => {
      const { answers, events } = await Effect.runPromise(race(generated))
      const order = refundLimitHolds(events)
      acquiringRulesHold(events)
      if (!isOrder(order)) throw new Error("the race's order was not created")
      const left = remainRefundFils(order)
      answers.forEach((answer, i) => {
        if (Exit.isSuccess(answer)) return
        const refused = String(answer.cause)
        // A request that lost every race is answered VersionConflict; its client retries it.
        if (refused.includes("VersionConflict")) return
        expect(refused).toContain("REFUND_AMOUNT_EXCEEDED")
        expect(generated.refunds[i]?.request.amountFils).toBeGreaterThan(left)
      })
    },
  )

  it.effect("really race: the store refuses appends made on a version another refund moved past", () =>
    Effect.gen(function* () {
      const [first] = fc.sample(
        concurrentRefunds.filter((r) => r.refunds.length >= 4),
        { numRuns: 1, seed: 16 },
      )
      if (first === undefined) throw new Error("no race")
      expect((yield* race(first)).lostRaces).toBeGreaterThan(0)
    }),
  )

  it("make races that pass the paid amount, and retries among them", () => {
    const races = fc.sample(concurrentRefunds, { numRuns: 200, seed: 16 })
    const asked = (r: ConcurrentRefunds) => r.refunds.reduce((total, refund) => total + refund.request.amountFils, 0)
    expect(races.some((r) => asked(r) > r.paidFils)).toBe(true)
    expect(races.some((r) => new Set(r.refunds).size < r.refunds.length)).toBe(true)
  })
})

describe("the laws catch broken code", () => {
  const opening: ReadonlyArray<Command> = [createOrder(), payOrder()]
  const refunds = [
    reserveRefund({ refundMerchantOrderNo: "R1", amountFils: fils(6_000) }),
    reserveRefund({ refundMerchantOrderNo: "R2", amountFils: fils(6_000) }),
  ]

  it("refundLimitHolds names the refund that a racy service took on a stale order", () => {
    // The bug of a service that decides each refund on the order it read before the others were appended.
    const paid = historyOf(acquiringOrder)(opening)
    const stale = refunds.flatMap((refund) => Result.getOrThrow(acquiringOrder.decide(refund, paid.state)))
    const broken = lawBrokenBy(() => refundLimitHolds([...paid.events, ...stale]))
    expect(broken).toBeInstanceOf(LawBroken)
    expect(broken).toMatchObject({
      law: "the refund limit holds",
      rule: "refunds not failed never exceed the paid amount",
      step: 4,
      what: "RefundReserved",
    })
  })

  it("refundLimitHolds reads with the real evolve the events of a decider whose evolve forgets reservations", () => {
    const forgetful = {
      ...acquiringOrder,
      evolve: (s: Parameters<typeof evolve>[0], e: Event) => (e._tag === "RefundReserved" ? s : evolve(s, e)),
    }
    const history = historyOf(forgetful)([...opening, ...refunds])
    expect(history.events.filter((e) => e._tag === "RefundReserved")).toHaveLength(2)
    expect(lawBrokenBy(() => refundLimitHolds(history.events))).toMatchObject({ name: "LawBroken", step: 4 })
    expect(lawBrokenBy(() => acquiringRulesHold(history.events))).toMatchObject({ name: "LawBroken", step: 4 })
  })

  it("retriesDecideNothing names a refund a decider takes twice", () => {
    // A decider that looks a refund number up among the confirmed refunds only: a pending one is reserved again.
    const forgetsPending: typeof acquiringOrder = {
      ...acquiringOrder,
      decide: (command, state) =>
        acquiringOrder.decide(
          command,
          isOrder(state) ? { ...state, refunds: state.refunds.filter((r) => r.status !== "PENDING") } : state,
        ),
    }
    const first = reserveRefund()
    expect(lawBrokenBy(() => retriesDecideNothing(forgetsPending)([...opening, first, first]))).toMatchObject({
      name: "LawBroken",
      step: 4,
      what: "ReserveRefund",
    })
  })
})
