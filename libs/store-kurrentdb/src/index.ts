export { type KurrentDbStoreOptions, layerKurrentDb, makeKurrentDbEventStore } from "./KurrentDbEventStore.ts"
