/**
 * The event store, chosen by one setting (issue: production stores):
 * `sqlite:PATH` (the embedded default; `sqlite:PATH?synchronous=normal` trades
 * power-loss durability for write speed, see libs/store-sqlite), `postgres://...` (or
 * `postgresql://...`), `kurrentdb://...` (or `esdb://...`).
 */
import { resolve } from "node:path"
import { EventStore, StoreError } from "@mizan/eventsourcing"
import { layerKurrentDb } from "@mizan/store-kurrentdb"
import { layerPostgres } from "@mizan/store-postgres"
import { layerSqlite } from "@mizan/store-sqlite"
import { Effect, Layer } from "effect"

export const storeSettingDefault = "sqlite:mizan.db"

/** The store layer a setting names; paths of `sqlite:` are relative to `baseDir`. */
export const layerStore = (setting: string, baseDir: string): Layer.Layer<EventStore, StoreError> => {
  if (setting.startsWith("sqlite:")) {
    const [path = "", query = ""] = setting.slice("sqlite:".length).split("?")
    const synchronous = new URLSearchParams(query).get("synchronous")
    if (synchronous !== null && synchronous !== "full" && synchronous !== "normal")
      return unknownSetting(`synchronous=${synchronous} is not full or normal`)
    return layerSqlite(resolve(baseDir, path), synchronous === null ? {} : { synchronous })
  }
  if (/^postgres(ql)?:\/\//.test(setting)) return layerPostgres(setting)
  if (/^(kurrentdb|esdb|kurrent)(\+discover)?:\/\//.test(setting)) return layerKurrentDb(setting)
  // An unknown scheme is a configuration mistake: say which settings exist (and never echo a password).
  return unknownSetting(
    `store setting "${setting.replace(/\/\/[^@]*@/, "//***@")}" is not sqlite:PATH, postgres://... or kurrentdb://...`,
  )
}

const unknownSetting = (detail: string): Layer.Layer<EventStore, StoreError> =>
  Layer.effect(EventStore, Effect.fail(new StoreError({ reason: "Unavailable", detail })))
