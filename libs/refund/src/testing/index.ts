/**
 * `@mizan/refund/testing`: a reference model of one refund order's lifecycle
 * (`predictRefund`), written apart from the decider, and random commands
 * (`refundCommand`) for both-sided proofs: run them through the code under
 * test and the model, and expect the same outcome and status after each.
 */

export * from "./histories.ts"
export * from "./laws.ts"
export * from "./model.ts"
export * from "./steps.ts"
