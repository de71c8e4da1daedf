export { type Synchronous, synchronousLevels, walCheckpointPages } from "./connection.ts"
export { exclusiveWorkPollIntervalMs, layerSqliteExclusiveWork, sqliteExclusiveWork } from "./exclusiveWork.ts"
export type { GroupCommitStats } from "./groupCommit.ts"
export { layerSqliteKeyTable, type SqliteKeyTableOptions } from "./keyTable.ts"
export { schemaVersionCurrent } from "./schema.ts"
export {
  layerSqlite,
  makeSqliteEventStore,
  readPageMaxEvents,
  type SqliteEventStore,
  type SqliteStoreOptions,
  sqliteStoreDefaults,
} from "./store.ts"
