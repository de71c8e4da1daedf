/**
 * `@mizan/acquiring/testing`: what a test of acquiring code needs.
 *
 * - builders of realistic commands (`createOrder`, `payOrder`, `reserveRefund`, ...);
 * - a reference model of one order (`predictAcquiring`, `viewOfModel`), written
 *   apart from the decider, that predicts for any command whether it is
 *   accepted, repeated or refused with which code, and the balances after it;
 * - random steps aimed at the spec's limits (`acquiringStep`, `commandOf`), and
 *   `viewOfOrder` to read a real order the way the model reads its own.
 *
 * A both-sided proof of code that drives an order: run random steps through the
 * code and the model, and expect the same outcome and the same view after each
 * (see test/model.spec.ts of this lib, and of @mizan/order-flows).
 */
export * from "./builders.ts"
export * from "./histories.ts"
export * from "./laws.ts"
export * from "./model.ts"
export * from "./steps.ts"
export * from "./view.ts"
