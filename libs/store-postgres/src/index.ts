export {
  exclusiveWorkPollIntervalMs,
  layerPostgresExclusiveWork,
  type PostgresExclusiveWorkOptions,
  postgresExclusiveWork,
} from "./exclusiveWork.ts"
export { appendBatchMaxEvents } from "./globalPosition.ts"
export { layerPostgresKeyTable, makePostgresKeyTable, type PostgresKeyTableOptions } from "./keyTable.ts"
export { type Migration, migrations, schemaVersion } from "./migrations.ts"
export {
  appendChannel,
  layerPostgres,
  makePostgresEventStore,
  type PostgresEventStore,
  type PostgresStoreOptions,
} from "./PostgresEventStore.ts"
export {
  dropPostgresSchema,
  dropPostgresStoreTables,
  postgresSchemaExists,
  postgresSchemaHoldsStore,
} from "./schemas.ts"
