/**
 * @mizan/card-transfer: the bank card transfer aggregate (README.md says
 * the cut). `BankCardTransfer` holds the aggregate's names (aggregate,
 * streamId, Command, Event, State, initialState, decide, evolve,
 * invariants); the edge's kit (CardNumber, legalNameShape) is at top level.
 */
export * as BankCardTransfer from "./bankCardTransfer.ts"
export * from "./CardPayoutBank.ts"
export * from "./cardNumber.ts"
export * from "./expiry.ts"
export * from "./legalName.ts"
export * from "./sealingPlan.ts"
