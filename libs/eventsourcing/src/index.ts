/**
 * @mizan/eventsourcing: the decider and its command handler, event codecs,
 * the EventStore port with the memory store, and the log's integrity the
 * port answers with: the hash chain and signed heads (`./chain`) and the
 * sealed personal data (`./sealing`), both also exported here
 * (docs/decisions/0010-eventsourcing-holds-integrity.md).
 */
export { setBounded } from "./boundedMap.ts"
export * from "./chain/index.ts"
export * from "./codec.ts"
export * from "./decider.ts"
export * from "./EventStore.ts"
export * from "./events.ts"
export * from "./exclusiveWork.ts"
export { fileErrorReason, fileWriteErrorReason } from "./fileError.ts"
export * from "./follow.ts"
export * from "./handler.ts"
export {
  instrumentedEventStore,
  layerInstrumentedEventStore,
  storeAppends,
  storeEventsAppended,
} from "./instrumented.ts"
export * from "./locks.ts"
export * from "./memory.ts"
export * from "./restart.ts"
export * from "./sealing/index.ts"
export * from "./writeHealth.ts"
