/**
 * `@mizan/eventsourcing/testing/properties`: the property-testing kit's
 * base (histories, laws, the racing store, the budget decider, reading a
 * stream's events back) without the
 * contract suites and `deciderSpec`, which are written on vitest. It needs
 * fast-check alone, so the domain libs' testing entries stand on it and
 * load in any test runner; `@mizan/eventsourcing/testing` holds all of it.
 */
export * from "./budget.ts"
export * from "./histories.ts"
export * from "./laws.ts"
export * from "./racing.ts"
export * from "./readEvents.ts"
export * from "./readWholeLog.ts"
export * from "./runCommands.ts"
