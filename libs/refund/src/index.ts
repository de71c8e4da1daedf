/**
 * @mizan/refund: the refund order aggregate as the namespace `RefundOrder`
 * (README.md says the cut), and at top level how a refund's amount splits
 * into the parts its details name.
 */
export * from "./allocation.ts"
export * as RefundOrder from "./refundOrder.ts"
