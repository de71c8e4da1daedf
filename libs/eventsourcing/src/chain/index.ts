/**
 * `@mizan/eventsourcing/chain`: the tamper-evident log (docs/architecture.md#a-tamper-evident-log):
 * each event's chain hash over its canonical bytes, the running digest and
 * a signed head's payload, the bounded cache of stream heads a store chains
 * appends with, and the head signer. In this lib because the `EventStore`
 * port answers chained records and signed heads: every store builds them
 * here (docs/decisions/0010-eventsourcing-holds-integrity.md).
 */
export * from "./chain.ts"
export * from "./headSigner.ts"
export * from "./streamHeads.ts"
