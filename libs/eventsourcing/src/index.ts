export { setBounded } from "./boundedMap.ts"
export * from "./chain.ts"
export * from "./codec.ts"
export * from "./decider.ts"
export * from "./EventStore.ts"
export * from "./events.ts"
export * from "./exclusiveWork.ts"
export { fileErrorReason, fileWriteErrorReason } from "./fileError.ts"
export * from "./follow.ts"
export * from "./handler.ts"
export * from "./headSigner.ts"
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
export * from "./streamHeads.ts"
export * from "./writeHealth.ts"
