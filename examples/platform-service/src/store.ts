/**
 * Where the service keeps its orders, chosen by one setting (`STORE`):
 * `sqlite:PATH` (the default: one file, no server) or `postgres://...`
 * (several service processes on one database). Both are Mizan's own stores.
 */
import type { EventStore, StoreError } from "@mizan/eventsourcing"
import { layerPostgres } from "@mizan/store-postgres"
import { layerSqlite } from "@mizan/store-sqlite"
import type { Layer } from "effect"

export const defaultStoreSetting = "sqlite:platform.db"

/** The PostgreSQL schema of this service's tables, so it may share a database with other services. */
export const postgresSchema = "platform_payments"

export const storeLayer = (setting: string): Layer.Layer<EventStore, StoreError> => {
  if (setting.startsWith("sqlite:") && setting.length > "sqlite:".length)
    return layerSqlite(setting.slice("sqlite:".length))
  if (/^postgres(ql)?:\/\//.test(setting)) return layerPostgres(setting, { schema: postgresSchema })
  throw new Error(`STORE must be sqlite:PATH or postgres://..., not "${setting}"`)
}
