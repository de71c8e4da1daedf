/**
 * How a paid amount is split between the payee, the sharing accounts and
 * the fee account, exactly in fils: paid = settlementAmount + sum of
 * sharingSettledAmount + fees, for every input.
 *
 * 1. Gross shares. Each sharing item is owed its sharingAmount and the payee
 *    the rest. When a discount made the paid amount smaller than the sum of
 *    sharingAmounts, the payee gets nothing and the paid amount is divided
 *    among the sharing items in proportion to their sharingAmount (largest
 *    remainder, kernel `allocateProportionally`).
 * 2. The fee is the merchant's fee plan applied to the paid amount (basis
 *    points plus fixed, rounded half up to the fils, never above the paid
 *    amount: kernel `feeFor`).
 * 3. Who bears the fee: the item with withholdAndRemitFee true first ("the
 *    account receives sharingAmount minus the transaction fee"), then the
 *    payee, then the other sharing items in sequence order, each at most its
 *    gross share. Since the fee never exceeds the paid amount, it always fits.
 */
import {
  allocateProportionally,
  type FeePlan,
  type Fils,
  feeFor,
  fils,
  minFils,
  subtractFils,
  sumFils,
  sumFilsBig,
} from "@mizan/kernel"
import type { RecordedSharingParam, Settlement } from "./events.ts"

export const splitPayment = (
  paidAmountFils: Fils,
  sharingParamList: ReadonlyArray<RecordedSharingParam>,
  feePlan: FeePlan,
): Settlement => {
  const sharingAmountsFils = sharingParamList.map((item) => item.sharingAmountFils)
  const sharingTotalFils = sumFils(sharingAmountsFils)
  const discountCoversSharing = paidAmountFils < sharingTotalFils
  const sharingGrossFils = discountCoversSharing
    ? allocateProportionally(paidAmountFils, sharingAmountsFils)
    : sharingAmountsFils
  const payeeGrossFils = discountCoversSharing ? fils(0) : subtractFils(paidAmountFils, sharingTotalFils)

  // The order in which accounts bear the fee: -1 is the payee, i >= 0 the sharing item at index i.
  const withholding = sharingParamList.findIndex((item) => item.withholdAndRemitFee === true)
  const bearers = [
    ...(withholding >= 0 ? [withholding] : []),
    -1,
    ...sharingParamList.map((_, i) => i).filter((i) => i !== withholding),
  ]
  const grossOf = (bearer: number): Fils => (bearer < 0 ? payeeGrossFils : (sharingGrossFils[bearer] ?? fils(0)))
  const borne = new Map<number, Fils>()
  let feeLeftFils = feeFor(feePlan, paidAmountFils)
  for (const bearer of bearers) {
    const partFils = minFils(feeLeftFils, grossOf(bearer))
    borne.set(bearer, partFils)
    feeLeftFils = subtractFils(feeLeftFils, partFils)
  }
  const borneBy = (bearer: number): Fils => borne.get(bearer) ?? fils(0)

  return {
    settlementAmountFils: subtractFils(payeeGrossFils, borneBy(-1)),
    payeeFeeAmountFils: borneBy(-1),
    sharing: sharingParamList.map((item, i) => ({
      sharingIdentitySeqId: item.sharingIdentitySeqId,
      sharingSettledAmountFils: subtractFils(grossOf(i), borneBy(i)),
      sharingSettledFeeAmountFils: borneBy(i),
    })),
  }
}

/**
 * All the fee a split charged: the payee's part and every sharing item's
 * part. Summed as read, unchecked: the audit reads splits of damaged
 * histories too (a negative fee), which `invariants` must report, not throw on.
 */
export const feeTotalFils = (settlement: Settlement): Fils => {
  let total = settlement.payeeFeeAmountFils as number
  for (const item of settlement.sharing) total += item.sharingSettledFeeAmountFils
  return total as Fils
}

/** What a split hands out: settlement + sharing settled + fees, in bigint (a check). Equals the paid amount. */
export const splitTotalFils = (settlement: Settlement): bigint =>
  sumFilsBig([
    settlement.settlementAmountFils,
    settlement.payeeFeeAmountFils,
    ...settlement.sharing.flatMap((s) => [s.sharingSettledAmountFils, s.sharingSettledFeeAmountFils]),
  ])
