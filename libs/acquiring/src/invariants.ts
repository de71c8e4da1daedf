/**
 * invariants(state): the rules an acquiring order must always satisfy, as a
 * list of the broken ones (empty when all hold). The property tests run it
 * after every step, and the audit after every append of a recorded history
 * (CONTRIBUTING.md#how-the-code-reads: assert what must hold in two places).
 *
 * The audit runs this a million times a replay, so the checks are plain loops
 * that allocate nothing while the rules hold. Totals are summed as numbers:
 * every amount is a Fils (a whole number from 0 to 10^14), so a total is exact
 * up to 2^53, and a total past 2^53 still compares above any Fils it is
 * checked against. A broken rule's detail is worked out again in bigint
 * (`sumFilsBig`), so a damaged history is reported exactly, never thrown on.
 */

import type { BrokenRule } from "@mizan/kernel"
import { type Fils, sumFilsBig } from "@mizan/kernel"
import type { RefundAllocation, Settlement } from "./events.ts"
import { accountBalances, allocationTotalFils, describeAccount } from "./refundAllocation.ts"
import { splitTotalFils } from "./settlement.ts"
import {
  acquireAmountFils,
  activeRefunds,
  isOrder,
  type Order,
  type Payment,
  paymentOf,
  type RefundReservation,
  type State,
} from "./state.ts"

export type { BrokenRule }

export const rules = {
  transitions: "only the spec's status transitions happen",
  refundsWithinPaid: "refunds not failed never exceed the paid amount",
  refundCounters: "remainRefundAmount is paid minus succeeded minus pending refunds",
  accountsWithinReceived: "no account gives back more than it received",
  allocationSums: "every refund allocation sums to its refund amount",
  splitSums: "paid = payee settlement + sharing settled + fees",
  splitCoversSharing: "the payment split names every sharing item of the order",
  paidWithinTotal: "paidAmount is at most totalAmount",
  refundsNeedPayment: "only a paid order has refunds",
  revokedWasPaid: "a revoked order was paid and holds the full refund its revoke started",
  refundNumbersUnique: "refund order numbers are unique on an order",
} as const

/** settlement + sharing settled + every fee: what `splitTotalFils` says, as a number. */
const splitSumOf = (settlement: Settlement): number => {
  let total = settlement.settlementAmountFils + settlement.payeeFeeAmountFils
  for (const s of settlement.sharing) total += s.sharingSettledAmountFils + s.sharingSettledFeeAmountFils
  return total
}

/** The parts of an allocation: what `allocationTotalFils` says, as a number. */
const allocationSumOf = (allocation: RefundAllocation): number => {
  let total = allocation.payeeFils + allocation.feeFils
  for (const s of allocation.sharing) total += s.amountFils
  return total
}

/** Whether the split names the order's sharing items, the same ones in the same order. */
const splitCoversSharing = (order: Order, settlement: Settlement): boolean => {
  const items = order.request.sharingParamList ?? []
  if (items.length !== settlement.sharing.length) return false
  for (let i = 0; i < items.length; i++)
    if (items[i]?.sharingIdentitySeqId !== settlement.sharing[i]?.sharingIdentitySeqId) return false
  return true
}

/** What the refunds pending or succeeded take from one account (see `accountBalances`, which says the same). */
const refundedFromAccount = (
  refunds: ReadonlyArray<RefundReservation>,
  part: (allocation: RefundAllocation) => Fils,
): number => {
  let total = 0
  for (const refund of refunds) if (refund.status !== "RELEASED") total += part(refund.allocation)
  return total
}

/** Whether any account gives back more than it received; `accountBalances` then says which. */
const someAccountOverRefunded = (order: Order, payment: Payment): boolean => {
  const { refunds } = order
  if (refunds.length === 0) return false
  const { settlement } = payment
  if (refundedFromAccount(refunds, (a) => a.payeeFils) > settlement.settlementAmountFils) return true
  let feesReceived: number = settlement.payeeFeeAmountFils
  for (const item of settlement.sharing) {
    feesReceived += item.sharingSettledFeeAmountFils
    const id = item.sharingIdentitySeqId
    const refunded = refundedFromAccount(
      refunds,
      (a) => a.sharing.find((s) => s.sharingIdentitySeqId === id)?.amountFils ?? (0 as Fils),
    )
    if (refunded > item.sharingSettledAmountFils) return true
  }
  return refundedFromAccount(refunds, (a) => a.feeFils) > feesReceived
}

const paymentRules = (order: Order, broken: Array<BrokenRule>): void => {
  const payment = paymentOf(order)
  if (payment === undefined) {
    if (order.refunds.length > 0)
      broken.push({ rule: rules.refundsNeedPayment, detail: `${order.refunds.length} refunds` })
    if (order.revoked) broken.push({ rule: rules.revokedWasPaid, detail: "revoked without a payment" })
    return
  }
  const { settlement } = payment
  if (splitSumOf(settlement) !== payment.paidAmountFils)
    broken.push({
      rule: rules.splitSums,
      detail: `split ${splitTotalFils(settlement)} != paid ${payment.paidAmountFils}`,
    })
  if (!splitCoversSharing(order, settlement)) {
    const itemIds = (order.request.sharingParamList ?? []).map((s) => s.sharingIdentitySeqId).join(",")
    const splitIds = settlement.sharing.map((s) => s.sharingIdentitySeqId).join(",")
    broken.push({ rule: rules.splitCoversSharing, detail: `items [${itemIds}], split [${splitIds}]` })
  }
  if (payment.paidAmountFils > order.request.totalAmountFils)
    broken.push({ rule: rules.paidWithinTotal, detail: `${payment.paidAmountFils} > ${order.request.totalAmountFils}` })
  if (someAccountOverRefunded(order, payment))
    for (const balance of accountBalances(payment, activeRefunds(order)))
      if (balance.refundedFils > balance.receivedFils)
        broken.push({
          rule: rules.accountsWithinReceived,
          detail: `${describeAccount(balance.account)} gives back ${balance.refundedFils} of ${balance.receivedFils}`,
        })
  if (order.revoked && !order.refunds.some((r) => r.cause === "REVOKE"))
    broken.push({ rule: rules.revokedWasPaid, detail: "no refund started by the revoke" })
}

/** The exact total of the refunds in one status, for a detail. */
const totalBig = (refunds: ReadonlyArray<RefundReservation>, status: RefundReservation["status"]): bigint =>
  sumFilsBig(refunds.filter((r) => r.status === status).map((r) => r.request.amountFils))

/** Whether two refunds of the order share a refund order number. */
const hasDuplicateNumbers = (order: Order): boolean =>
  order.refunds.length > 1 && new Set(order.refunds.map((r) => r.refundOrderNo)).size !== order.refunds.length

const refundRules = (order: Order, broken: Array<BrokenRule>): void => {
  const { refunds } = order
  let succeeded = 0
  let pending = 0
  for (const refund of refunds)
    if (refund.status === "SUCCEEDED") succeeded += refund.request.amountFils
    else if (refund.status === "PENDING") pending += refund.request.amountFils
  if (succeeded !== order.refundedFils || pending !== order.pendingRefundFils)
    broken.push({
      rule: rules.refundCounters,
      detail: `refunded ${order.refundedFils} / pending ${order.pendingRefundFils}, refunds say ${totalBig(refunds, "SUCCEEDED")} / ${totalBig(refunds, "PENDING")}`,
    })
  const paid = acquireAmountFils(order)
  if (succeeded + pending > paid)
    broken.push({
      rule: rules.refundsWithinPaid,
      detail: `${totalBig(refunds, "SUCCEEDED")} refunded + ${totalBig(refunds, "PENDING")} pending > ${paid} paid`,
    })
  for (const refund of refunds)
    if (allocationSumOf(refund.allocation) !== refund.request.amountFils)
      broken.push({
        rule: rules.allocationSums,
        detail: `refund ${refund.refundOrderNo}: parts ${allocationTotalFils(refund.allocation)} != ${refund.request.amountFils}`,
      })
  if (hasDuplicateNumbers(order))
    broken.push({ rule: rules.refundNumbersUnique, detail: refunds.map((r) => r.refundOrderNo).join(", ") })
}

export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  const broken: Array<BrokenRule> = []
  for (const detail of state.anomalies) broken.push({ rule: rules.transitions, detail })
  if (isOrder(state)) {
    paymentRules(state, broken)
    refundRules(state, broken)
  }
  return broken
}
