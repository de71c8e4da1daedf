/**
 * Whole acquiring histories for a platform's property tests, decided by the
 * real `AcquiringOrder.aggregate`: random command sequences aimed at the spec's limits
 * (`acquiringCommands`), the histories they make (`validAcquiringHistories`),
 * the same with late and out-of-order retries (`acquiringRetries`), and many
 * refunds raced against one paid order (`concurrentRefunds`). The laws they
 * must keep are in `laws.ts`.
 */
import { historyOf, inAnyOrder, validHistories, withRetries } from "@mizan/eventsourcing/testing/properties"
import { fils } from "@mizan/kernel"
import fc from "fast-check"
import { acquiringOrder } from "../aggregate.ts"
import type { Command, CreateOrder, PayOrder, ReserveRefund } from "../commands.ts"
import { createOrder, payOrder, reserveRefund } from "./builders.ts"
import { emptyAcquiringModel, predictAcquiring } from "./model.ts"
import { type AcquiringStep, acquiringOpening, acquiringStep, commandOf } from "./steps.ts"

/** The commands a run of steps stands for: each step's amounts and times read off the order as the model holds it. */
const commandsOfSteps = (steps: ReadonlyArray<AcquiringStep>): ReadonlyArray<Command> => {
  let model = emptyAcquiringModel(createOrder().merchantId)
  const sent: Array<Command> = []
  for (const step of steps) {
    const command = commandOf(model, step, sent)
    sent.push(command)
    model = predictAcquiring(model, command).model
  }
  return sent
}

/**
 * Sequences of well-formed commands against one order (merchant `M0001`,
 * `ORDER-1`): mostly a created and paid order, then payments, settlements,
 * expiries, revokes and refunds of exactly what is left and one fils more,
 * on day 180 and a millisecond later, with verbatim repeats. Some are
 * refused by the rules, as a platform's requests are.
 *
 *   fc.property(acquiringCommands, (commands) => myCode.run(commands))
 */
export const acquiringCommands: fc.Arbitrary<ReadonlyArray<Command>> = fc
  .tuple(acquiringOpening, fc.array(acquiringStep, { maxLength: 30 }))
  .map(([opening, steps]) => commandsOfSteps([...opening, ...steps]))

/**
 * Histories of `acquiringCommands`, decided by the real order: the events a
 * store would hold, for a projection, a view or a report of yours.
 *
 *   fc.property(validAcquiringHistories, (h) => expect(myReport(h.events).paid).toBe(h.state...))
 */
export const validAcquiringHistories = validHistories(acquiringOrder, acquiringCommands)

/**
 * `validAcquiringHistories` with accepted commands sent again, right after
 * or after later ones: what a platform's retrying client sends.
 *
 *   fc.property(acquiringRetries, (h) => retriesDecideNothing(AcquiringOrder.aggregate)(h.commands))
 */
export const acquiringRetries = withRetries(acquiringOrder, acquiringCommands)

/** A paid order and the refunds raced against it. */
export interface ConcurrentRefunds {
  /** Create the order and pay it in full: send these first, in order. */
  readonly opening: readonly [CreateOrder, PayOrder]
  readonly paidFils: number
  /**
   * Refunds to send at once, in this (random) order: distinct refund
   * numbers whose amounts together often pass the paid amount, and now and
   * then one request twice (a client's retry racing its original).
   */
  readonly refunds: ReadonlyArray<ReserveRefund>
}

const raced = fc.record({
  paidFils: fc.oneof(fc.constantFrom(1, 10_000), fc.integer({ min: 1, max: 2_000_000 })),
  shares: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 2, maxLength: 8 }),
  retried: fc.option(fc.nat(), { freq: 3 }),
})

/**
 * Many refunds of one paid order sent at once: run `opening`, then every
 * refund concurrently through your code, read the order's stream back and
 * check `refundLimitHolds` on it.
 *
 *   fc.asyncProperty(concurrentRefunds, async ({ opening, refunds }) => {
 *     for (const c of opening) await myService.send(c)
 *     await Promise.allSettled(refunds.map((r) => myService.refund(r.request)))
 *     refundLimitHolds(await myService.readOrderEvents())
 *   })
 */
export const concurrentRefunds: fc.Arbitrary<ConcurrentRefunds> = raced.chain(({ paidFils, shares, retried }) => {
  const opening = [
    createOrder({ totalAmountFils: fils(paidFils) }),
    payOrder({ paidAmountFils: fils(paidFils), feePlan: { basisPoints: 0, fixedFils: fils(0) } }),
  ] as const
  // Each share is a percentage of the paid amount: eight of them pass it in most runs.
  const refunds = shares.map((share, i) =>
    reserveRefund({
      refundMerchantOrderNo: `RACE-${i + 1}`,
      amountFils: fils(Math.max(1, Math.floor((paidFils * share) / 100))),
    }),
  )
  const retry = retried === null ? undefined : refunds[retried % refunds.length]
  return inAnyOrder(retry === undefined ? refunds : [...refunds, retry]).map(
    (order): ConcurrentRefunds => ({ opening, paidFils, refunds: order }),
  )
})

/**
 * A race decided one command after another, in its order, by the real
 * order: what a service that took the refunds one at a time holds after it.
 *
 *   const { state } = raceDecidedInOrder(race) // the order's refunds, to build refund orders from
 */
export const raceDecidedInOrder = (race: ConcurrentRefunds) =>
  historyOf(acquiringOrder)([...race.opening, ...race.refunds])
