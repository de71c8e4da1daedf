/**
 * @mizan/acquiring: the acquiring order aggregate as the namespace
 * `AcquiringOrder` (README.md says the cut), and at top level what is not
 * the aggregate's own: how a refund is split between the accounts a payment
 * was shared with, the payment's split and fees, and the refund details the
 * answers show.
 */
export * as AcquiringOrder from "./acquiringOrder.ts"
export * from "./refundAllocation.ts"
export { sealingPlan } from "./sealingPlan.ts"
export * from "./settlement.ts"
export * from "./views.ts"
