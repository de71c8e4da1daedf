import { test } from "@fast-check/vitest"
import { type FeePlan, fils, noFees } from "@mizan/kernel"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { SharingParam } from "../src/acquiringOrder.ts"
import { feeTotalFils, splitPayment, splitTotalFils } from "../src/index.ts"
import { sharingItem } from "../src/testing/index.ts"

const plan = (basisPoints: number, fixedFils = 0): FeePlan => ({ basisPoints, fixedFils: fils(fixedFils) })

describe("splitting a payment between the payee, the sharing accounts and the fee account", () => {
  it("gives the payee the paid amount minus the fee when there is no sharing", () =>
    expect(splitPayment(fils(10_000), [], plan(250))).toEqual({
      settlementAmountFils: 9_750,
      payeeFeeAmountFils: 250,
      sharing: [],
    }))

  it("rounds the fee half up to the fils: 2.5% of 0.99 AED is 0.02 AED", () =>
    expect(splitPayment(fils(99), [], plan(250)).payeeFeeAmountFils).toBe(2))

  it("pays each sharing item its sharingAmount and the payee bears the fee", () =>
    expect(splitPayment(fils(10_000), [sharingItem(1, 3_000), sharingItem(2, 2_000)], plan(100, 10))).toEqual({
      settlementAmountFils: 4_890,
      payeeFeeAmountFils: 110,
      sharing: [
        { sharingIdentitySeqId: 1, sharingSettledAmountFils: 3_000, sharingSettledFeeAmountFils: 0 },
        { sharingIdentitySeqId: 2, sharingSettledAmountFils: 2_000, sharingSettledFeeAmountFils: 0 },
      ],
    }))

  it("withholds the fee from the item with withholdAndRemitFee: it receives sharingAmount minus the fee", () =>
    expect(splitPayment(fils(10_000), [sharingItem(1, 3_000), sharingItem(2, 2_000, true)], plan(250))).toEqual({
      settlementAmountFils: 5_000,
      payeeFeeAmountFils: 0,
      sharing: [
        { sharingIdentitySeqId: 1, sharingSettledAmountFils: 3_000, sharingSettledFeeAmountFils: 0 },
        { sharingIdentitySeqId: 2, sharingSettledAmountFils: 1_750, sharingSettledFeeAmountFils: 250 },
      ],
    }))

  it("takes the part of the fee a withholding item cannot bear from the payee", () =>
    expect(splitPayment(fils(10_000), [sharingItem(1, 100, true)], plan(250))).toMatchObject({
      settlementAmountFils: 9_750,
      payeeFeeAmountFils: 150,
      sharing: [{ sharingSettledAmountFils: 0, sharingSettledFeeAmountFils: 100 }],
    }))

  it("divides a discounted payment below the sharing total among the items in proportion, the payee getting nothing", () =>
    expect(splitPayment(fils(5_000), [sharingItem(1, 6_000), sharingItem(2, 4_000)], noFees)).toEqual({
      settlementAmountFils: 0,
      payeeFeeAmountFils: 0,
      sharing: [
        { sharingIdentitySeqId: 1, sharingSettledAmountFils: 3_000, sharingSettledFeeAmountFils: 0 },
        { sharingIdentitySeqId: 2, sharingSettledAmountFils: 2_000, sharingSettledFeeAmountFils: 0 },
      ],
    }))

  const sharingLists = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 50_000 }), fc.boolean()), { maxLength: 5 })
    .map((items): ReadonlyArray<SharingParam> => {
      const withholding = items.findIndex(([, withhold]) => withhold)
      return items.map(([amount], i) => sharingItem(i + 1, amount, i === withholding ? true : undefined))
    })

  test.prop(
    [
      fc.integer({ min: 1, max: 200_000 }),
      sharingLists,
      fc.integer({ min: 0, max: 10_000 }),
      fc.integer({ min: 0, max: 1_000 }),
    ],
    { numRuns: 200 },
  )(
    "accounts for every fils: paid = settlement + sharing settled + fees, no part negative",
    (paid, sharing, bp, fixed) => {
      const split = splitPayment(fils(paid), sharing, plan(bp, fixed))
      expect(splitTotalFils(split)).toBe(BigInt(paid))
      expect(feeTotalFils(split)).toBe(Math.min(paid, Math.floor((paid * bp + 5_000) / 10_000) + fixed))
      for (const part of [split.settlementAmountFils, ...split.sharing.map((s) => s.sharingSettledAmountFils)])
        expect(part).toBeGreaterThanOrEqual(0)
      for (const [i, s] of split.sharing.entries())
        expect(s.sharingSettledAmountFils + s.sharingSettledFeeAmountFils).toBeLessThanOrEqual(
          sharing[i]?.sharingAmountFils ?? 0,
        )
    },
  )
})
