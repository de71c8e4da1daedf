/**
 * `@mizan/card-transfer/testing`: the property-testing kit of the bank card
 * transfer. Builders of commands as the edge makes them (`placeCardTransfer`,
 * `cardNumberOf`), arbitraries of placements, reports and whole histories
 * decided by the real aggregate (`validCardTransferHistories`,
 * `cardTransferRetries`), and its laws (`cardTransferRulesHold`,
 * `cardTransferLifecycleHolds`, `cardNumbersNeverWritten`). Needs fast-check.
 */
export * from "./builders.ts"
export * from "./histories.ts"
export * from "./laws.ts"
