/**
 * The refund order aggregate, reached as `RefundOrder.<name>`: the names
 * every Mizan aggregate has (`aggregate`, `streamId`, `Command`, `Event`,
 * `State`, `initialState`, `decide`, `evolve`, `invariants`) and the rest of
 * its vocabulary (the commands and events one by one, `Order` and its
 * statuses).
 */

export { refundOrder as aggregate } from "./aggregate.ts"
export * from "./commands.ts"
export * from "./decide.ts"
export * from "./events.ts"
export * from "./evolve.ts"
export { refundStreamId as streamId } from "./ids.ts"
export * from "./invariants.ts"
export * from "./state.ts"
