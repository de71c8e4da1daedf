import { test } from "@fast-check/vitest"
import { fils, sumFils } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import {
  type Command,
  decide,
  evolve,
  initialState,
  invariants,
  isOrder,
  paymentOf,
  type RefundSharingParam,
  type State,
} from "../src/acquiringOrder.ts"
import { accountBalances, allocationTotalFils } from "../src/index.ts"
import {
  type AcquiringModel,
  createOrder,
  digest,
  emptyAcquiringModel,
  eventsDecidedBy,
  merchantId,
  payOrder,
  predictAcquiring,
  reserveRefund,
  sharingItem,
  viewOfModel,
  viewOfOrder,
} from "../src/testing/index.ts"

/**
 * Small orders over several accounts, refunded a few fils at a time: the
 * amounts where rounding meets every account's limit.
 */
const smallPaidOrder = fc
  .record({
    sharingFils: fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 4 }),
    payeeExtraFils: fc.integer({ min: 0, max: 30 }),
    discountFils: fc.integer({ min: 0, max: 40 }),
    basisPoints: fc.constantFrom(0, 250, 3_333, 10_000),
    fixedFils: fc.constantFrom(0, 1, 7),
    withholding: fc.option(fc.nat(), { nil: undefined }),
  })
  .filter(({ sharingFils, payeeExtraFils }) => sumFils(sharingFils.map(fils)) + payeeExtraFils > 0)
  .map(({ sharingFils, payeeExtraFils, discountFils, basisPoints, fixedFils, withholding }): ReadonlyArray<Command> => {
    const totalFils = sharingFils.reduce((a, b) => a + b, payeeExtraFils)
    const withholdingId = withholding === undefined ? undefined : (withholding % Math.max(sharingFils.length, 1)) + 1
    return [
      createOrder({
        totalAmountFils: fils(totalFils),
        sharingParamList: sharingFils.map((amount, i) =>
          sharingItem(i + 1, amount, withholdingId === i + 1 ? true : undefined),
        ),
      }),
      payOrder({
        paidAmountFils: fils(Math.max(1, totalFils - discountFils)),
        feePlan: { basisPoints, fixedFils: fils(fixedFils) },
      }),
    ]
  })

/** The order and its reference model after the same commands. */
const orderAndModel = (commands: ReadonlyArray<Command>): { state: State; model: AcquiringModel } => ({
  state: eventsDecidedBy(...commands).reduce(evolve, initialState),
  model: commands.reduce((model, command) => predictAcquiring(model, command).model, emptyAcquiringModel(merchantId)),
})

describe("refund allocation properties", () => {
  test.prop(
    [
      smallPaidOrder,
      fc.array(
        fc.record({
          amountFils: fc.integer({ min: 1, max: 12 }),
          refundSharingAmount: fc.option(fc.boolean(), { nil: undefined }),
          list: fc.option(
            fc.array(fc.record({ seqId: fc.integer({ min: 1, max: 4 }), amountFils: fc.integer({ min: 1, max: 5 }) }), {
              maxLength: 2,
            }),
            { nil: undefined, freq: 3 },
          ),
        }),
        { minLength: 1, maxLength: 25 },
      ),
    ],
    { numRuns: 200 },
  )(
    "a refund is taken exactly when the model takes it, refused with the model's code otherwise; no account ever gives back more than it received, and every allocation sums to its refund",
    (paidOrder, refunds) => {
      let { state, model } = orderAndModel(paidOrder)
      refunds.forEach((refund, i) => {
        const sharingParamList = refund.list?.map(
          (m): RefundSharingParam => ({
            sharingIdentitySeqId: m.seqId,
            sharingIdentityType: "PHONE_NO",
            sharingIdentity: digest(m.seqId),
            sharingMemo: "back",
            sharingAmountFils: fils(m.amountFils),
          }),
        )
        const command = reserveRefund({
          refundMerchantOrderNo: `R${i}`,
          amountFils: fils(refund.amountFils),
          ...(refund.refundSharingAmount === undefined ? {} : { refundSharingAmount: refund.refundSharingAmount }),
          ...(sharingParamList === undefined ? {} : { sharingParamList }),
        })
        const decided = decide(command, state)
        const predicted = predictAcquiring(model, command)
        model = predicted.model
        if (Result.isFailure(decided)) {
          // Refused: with the code the model gives, and nothing taken from any account.
          expect({ kind: "refused", code: decided.failure.code }).toEqual(predicted.outcome)
          expect(viewOfOrder(state)).toEqual(viewOfModel(model))
          return
        }
        expect(predicted.outcome).toEqual({ kind: "accepted" })
        for (const event of decided.success)
          if (event._tag === "RefundReserved")
            expect(allocationTotalFils(event.allocation)).toBe(BigInt(refund.amountFils))
        state = decided.success.reduce(evolve, state)
        expect(invariants(state)).toEqual([])
        if (!isOrder(state)) throw new Error("the order vanished")
        const payment = paymentOf(state)
        if (payment === undefined) throw new Error("the payment vanished")
        for (const balance of accountBalances(payment, state.refunds))
          expect(balance.refundedFils).toBeLessThanOrEqual(balance.receivedFils)
        expect(viewOfOrder(state)).toEqual(viewOfModel(model))
      })
    },
  )
})
