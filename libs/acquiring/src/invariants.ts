/**
 * invariants(state): the rules an acquiring order must always satisfy, as a
 * list of the broken ones (empty when all hold). The property tests run it
 * after every step, and the audit after every event of a recorded history
 * (STYLE.md, "Assert what must hold, in two places"). Sums are taken in
 * bigint, so a damaged history is reported rather than thrown on.
 */
import { type Fils, sumFilsBig } from "@mizan/kernel"
import { accountBalances, allocationTotalFils } from "./refundAllocation.ts"
import { splitTotalFils } from "./settlement.ts"
import { acquireAmountFils, activeRefunds, isOrder, type Order, paymentOf, type State } from "./state.ts"

export interface BrokenRule {
  readonly rule: string
  readonly detail: string
}

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

const sumOf = (amounts: ReadonlyArray<Fils>): bigint => sumFilsBig(amounts)

function* paymentRules(order: Order): Generator<BrokenRule> {
  const payment = paymentOf(order)
  if (payment === undefined) {
    if (order.refunds.length > 0) yield { rule: rules.refundsNeedPayment, detail: `${order.refunds.length} refunds` }
    if (order.revoked) yield { rule: rules.revokedWasPaid, detail: "revoked without a payment" }
    return
  }
  const { settlement } = payment
  if (splitTotalFils(settlement) !== BigInt(payment.paidAmountFils))
    yield { rule: rules.splitSums, detail: `split ${splitTotalFils(settlement)} != paid ${payment.paidAmountFils}` }
  const itemIds = (order.request.sharingParamList ?? []).map((s) => s.sharingIdentitySeqId).join(",")
  const splitIds = settlement.sharing.map((s) => s.sharingIdentitySeqId).join(",")
  if (itemIds !== splitIds) yield { rule: rules.splitCoversSharing, detail: `items [${itemIds}], split [${splitIds}]` }
  if (payment.paidAmountFils > order.request.totalAmountFils)
    yield { rule: rules.paidWithinTotal, detail: `${payment.paidAmountFils} > ${order.request.totalAmountFils}` }
  for (const balance of accountBalances(payment, activeRefunds(order)))
    if (balance.refundedFils > balance.receivedFils)
      yield {
        rule: rules.accountsWithinReceived,
        detail: `${JSON.stringify(balance.account)} gives back ${balance.refundedFils} of ${balance.receivedFils}`,
      }
  if (order.revoked && !order.refunds.some((r) => r.cause === "REVOKE"))
    yield { rule: rules.revokedWasPaid, detail: "no refund started by the revoke" }
}

function* refundRules(order: Order): Generator<BrokenRule> {
  const byStatus = (status: string) =>
    sumOf(order.refunds.filter((r) => r.status === status).map((r) => r.request.amountFils))
  const succeeded = byStatus("SUCCEEDED")
  const pending = byStatus("PENDING")
  if (succeeded !== BigInt(order.refundedFils) || pending !== BigInt(order.pendingRefundFils))
    yield {
      rule: rules.refundCounters,
      detail: `refunded ${order.refundedFils} / pending ${order.pendingRefundFils}, refunds say ${succeeded} / ${pending}`,
    }
  const paid = BigInt(acquireAmountFils(order))
  if (succeeded + pending > paid)
    yield { rule: rules.refundsWithinPaid, detail: `${succeeded} refunded + ${pending} pending > ${paid} paid` }
  for (const refund of order.refunds)
    if (allocationTotalFils(refund.allocation) !== BigInt(refund.request.amountFils))
      yield {
        rule: rules.allocationSums,
        detail: `refund ${refund.refundOrderNo}: parts ${allocationTotalFils(refund.allocation)} != ${refund.request.amountFils}`,
      }
  const numbers = order.refunds.map((r) => r.refundOrderNo)
  if (new Set(numbers).size !== numbers.length) yield { rule: rules.refundNumbersUnique, detail: numbers.join(", ") }
}

export const invariants = (state: State): ReadonlyArray<BrokenRule> => {
  const transitions = state.anomalies.map((detail) => ({ rule: rules.transitions, detail }))
  if (!isOrder(state)) return transitions
  return [...transitions, ...paymentRules(state), ...refundRules(state)]
}
