/**
 * The event store, chosen by one setting (issue: production stores), read
 * the same way by the gateway, the notifier and the audit:
 *
 * - `sqlite:PATH` (relative to a base folder), optionally
 *   `?synchronous=full` (SQLite syncs on the event loop) or
 *   `?synchronous=normal` (to trade power-loss durability for write speed)
 *   instead of the default `full-offloaded` (libs/store-sqlite/README.md,
 *   Durability);
 * - `postgres://...` or `postgresql://...`, optionally `?schema=NAME`
 *   (default "mizan") and the driver's own parameters (`postgresDriverOptions`);
 * - `kurrentdb://...` (or `esdb://`, `kurrent://`, with `+discover`),
 *   with `keyTable=sqlite:PATH` or `keyTable=postgres://...` among its
 *   query parameters: KurrentDB holds events only, so the data keys of
 *   sealed personal data are kept in that SQLite file or PostgreSQL
 *   database instead (README.md, KurrentDB).
 */

import { existsSync, statSync } from "node:fs"
import { resolve } from "node:path"
import {
  type EventStore,
  ExclusiveWork,
  inProcessExclusiveWork,
  type KeyRing,
  layerSealedEventStore,
  type Sealing,
  type SealingOptions,
  type SealingPlan,
  StoreError,
  SubjectKeys,
} from "@mizan/eventsourcing"
import { withoutUndefined } from "@mizan/kernel"
import { layerPostgres, layerPostgresExclusiveWork, layerPostgresKeyTable } from "@mizan/store-postgres"
import {
  layerSqlite,
  layerSqliteExclusiveWork,
  layerSqliteKeyTable,
  type Synchronous,
  synchronousLevels,
} from "@mizan/store-sqlite"
import { Effect, Layer, Result } from "effect"

export type StoreSetting =
  | { readonly _tag: "Sqlite"; readonly path: string; readonly synchronous?: Synchronous }
  | { readonly _tag: "Postgres"; readonly url: string; readonly schema?: string }
  | {
      readonly _tag: "KurrentDb"
      /** The connection string as the KurrentDB client reads it: without `keyTable`. */
      readonly connectionString: string
      /** Where the data keys of sealed personal data are kept; none: nothing personal can be appended. */
      readonly keyTable?: KeyTableSetting
    }

/** A store that can hold the data keys of another's events. */
export type KeyTableSetting = Extract<StoreSetting, { readonly _tag: "Sqlite" | "Postgres" }>

/** A setting with any password hidden (a KurrentDB setting's key table's too), for messages and logs. */
export const maskSetting = (setting: string): string => setting.replace(/\/\/([^:@/]*):[^@/]*@/g, "//$1:***@")

export const describeStore = (store: StoreSetting): string => {
  switch (store._tag) {
    case "Sqlite":
      return `sqlite:${store.path}`
    case "Postgres":
      return maskSetting(store.url)
    case "KurrentDb":
      return (
        maskSetting(store.connectionString) +
        (store.keyTable === undefined ? "" : ` (keys in ${describeStore(store.keyTable)})`)
      )
  }
}

/**
 * The options the KurrentDB client reads from a connection string (its
 * `parseConnectionString`), in any letter case and with `-` or `_` anywhere.
 * It ignores any other with a warning and connects anyway: a misspelt
 * `keyTable` would leave a store with no key table, unseen until the first
 * sealed append. So another parameter is refused here, at start.
 */
const kurrentDbClientOptions = [
  "connectionName",
  "defaultDeadline",
  "discoveryInterval",
  "gossipTimeout",
  "keepAliveInterval",
  "keepAliveTimeout",
  "maxDiscoverAttempts",
  "nodePreference",
  "throwOnAppendFailure",
  "tls",
  "tlsCAFile",
  "tlsVerifyCert",
  "userCertFile",
  "userKeyFile",
] as const

/**
 * The parameters `pg` reads from a connection URL (its `pg-connection-string`
 * and `ConnectionParameters`), written as it reads them: exactly. It passes
 * any other on and ignores it, so a misspelt `sslmod=require` would connect
 * without TLS, unseen; such a parameter is refused here, at start. Left out
 * though `pg` reads them: `replication` and `binary`, under which the
 * store's queries and column parsers do not work, and the unix-socket
 * `db` and `encoding` of a `socket:` URL, which a postgres:// URL is not.
 */
const postgresDriverOptions = [
  "host",
  "port",
  "user",
  "password",
  "ssl",
  "sslmode",
  "sslcert",
  "sslkey",
  "sslrootcert",
  "sslnegotiation",
  "uselibpqcompat",
  "application_name",
  "fallback_application_name",
  "options",
  "client_encoding",
  "statement_timeout",
  "lock_timeout",
  "idle_in_transaction_session_timeout",
  "query_timeout",
] as const

const flatCase = (name: string) => name.toLowerCase().replace(/[_-]/g, "")

/** The first parameter of a query that is none of `known` (compared by `same`), if any. */
const unknownParameter = (
  query: string,
  known: ReadonlyArray<string>,
  same: (written: string, name: string) => boolean,
): string | undefined =>
  [...new URLSearchParams(query).keys()].find((written) => !known.some((name) => same(written, name)))

/**
 * A KurrentDB setting read: its `keyTable` parameter taken out of the
 * connection string (the client would refuse it) and read as a setting of
 * its own, which must name SQLite or PostgreSQL.
 */
const parseKurrentDbSetting = (setting: string, baseDir: string): Result.Result<StoreSetting, string> => {
  const queryAt = setting.indexOf("?")
  if (queryAt < 0) return Result.succeed({ _tag: "KurrentDb", connectionString: setting })
  const unknown = unknownParameter(
    setting.slice(queryAt + 1),
    ["keyTable", ...kurrentDbClientOptions],
    (written, name) => written === name || (name !== "keyTable" && flatCase(written) === flatCase(name)),
  )
  if (unknown !== undefined)
    return Result.fail(
      `kurrentdb parameter ${unknown} is not known: a KurrentDB setting takes keyTable and the client's ${kurrentDbClientOptions.join(", ")}`,
    )
  const keyTable = new URLSearchParams(setting.slice(queryAt + 1)).get("keyTable")
  if (keyTable === null) return Result.succeed({ _tag: "KurrentDb", connectionString: setting })
  // The other parameters are kept as written: written back by URLSearchParams, their escapes could change.
  const rest = setting
    .slice(queryAt + 1)
    .split("&")
    .filter((parameter) => parameter.split("=")[0] !== "keyTable")
    .join("&")
  const connectionString = setting.slice(0, queryAt) + (rest === "" ? "" : `?${rest}`)
  const parsed = keyTable === "" ? Result.fail("it is empty") : parseStoreSetting(keyTable, baseDir)
  if (Result.isFailure(parsed) || parsed.success._tag === "KurrentDb")
    return Result.fail(
      `keyTable=${maskSetting(keyTable)} names no key table: it must be sqlite:PATH or postgres://... (${Result.isFailure(parsed) ? parsed.failure : "KurrentDB holds events only"})`,
    )
  return Result.succeed({ _tag: "KurrentDb", connectionString, keyTable: parsed.success })
}

/** Reads a setting, or says in a sentence why it names no store. */
export const parseStoreSetting = (setting: string, baseDir: string): Result.Result<StoreSetting, string> => {
  if (setting.startsWith("sqlite:")) {
    const [path = "", query = ""] = setting.slice("sqlite:".length).split("?")
    if (path === "") return Result.fail("sqlite: needs a path, as in sqlite:data/mizan.db")
    const unknown = unknownParameter(query, ["synchronous"], (written, name) => written === name)
    if (unknown !== undefined)
      return Result.fail(`sqlite parameter ${unknown} is not known: sqlite:PATH takes synchronous only`)
    const synchronous = new URLSearchParams(query).get("synchronous")
    const level = synchronousLevels.find((known) => known === synchronous)
    if (synchronous !== null && level === undefined)
      return Result.fail(`sqlite synchronous=${synchronous} is none of ${synchronousLevels.join(", ")}`)
    return Result.succeed({
      _tag: "Sqlite",
      path: resolve(baseDir, path),
      ...withoutUndefined({ synchronous: level }),
    })
  }
  if (/^postgres(ql)?:\/\//.test(setting)) {
    let url: URL
    try {
      url = new URL(setting)
    } catch {
      return Result.fail(`${maskSetting(setting)} is not a PostgreSQL connection URL`)
    }
    const unknown = unknownParameter(
      url.search,
      ["schema", ...postgresDriverOptions],
      (written, name) => written === name,
    )
    if (unknown !== undefined)
      return Result.fail(
        `postgres parameter ${unknown} is not known: a PostgreSQL setting takes schema and the driver's ${postgresDriverOptions.join(", ")}`,
      )
    const schema = url.searchParams.get("schema") ?? undefined
    url.searchParams.delete("schema")
    return Result.succeed({ _tag: "Postgres", url: url.toString(), ...withoutUndefined({ schema }) })
  }
  if (/^(kurrentdb|esdb|kurrent)(\+discover)?:\/\//.test(setting)) return parseKurrentDbSetting(setting, baseDir)
  return Result.fail(`store setting "${maskSetting(setting)}" is not sqlite:PATH, postgres://... or kurrentdb://...`)
}

export interface OpenOptions {
  /**
   * Refuse a store that is not there yet, rather than create an empty one: a
   * SQLite file that does not exist, a PostgreSQL schema that holds no Mizan
   * tables. For the tools that read what a gateway wrote (the audit, the
   * notifier's operator commands), where a mistyped path or schema would
   * otherwise read as a store with nothing in it.
   */
  readonly mustExist?: boolean
}

/** Why a SQLite path cannot be opened as asked, or undefined when it can. */
const sqlitePathRefusal = (path: string, options: OpenOptions): StoreError | undefined => {
  if (!existsSync(path))
    return options.mustExist === true
      ? new StoreError({
          reason: "Unavailable",
          detail: `no store at ${path}: the file does not exist, and is not created to be read (check the store setting)`,
        })
      : undefined
  if (statSync(path).isDirectory())
    return new StoreError({ reason: "Unavailable", detail: `${path} is a directory, not a store file` })
  return undefined
}

/**
 * KurrentDB holds events only. A KurrentDB setting that names no
 * `keyTable` has no table for the data keys of sealed personal data: it
 * reads as empty (an export has no key to carry) and refuses every write,
 * saying which setting gives it one.
 */
const noKeyTable = (store: string) =>
  Layer.succeed(SubjectKeys, {
    liveKeyOf: () => Effect.succeed(undefined),
    keyById: () => Effect.fail(keyTableMissing(store)),
    keysById: () => Effect.fail(keyTableMissing(store)),
    addKey: () => Effect.fail(keyTableMissing(store)),
    forget: () => Effect.fail(keyTableMissing(store)),
    allKeys: () => Effect.succeed([]),
    liveKeys: () => Effect.succeed([]),
    rewrap: () => Effect.fail(keyTableMissing(store)),
  })

const keyTableMissing = (store: string) =>
  new StoreError({
    reason: "Unavailable",
    detail: `${store} keeps no key table, which sealed personal data needs: add keyTable=sqlite:PATH or keyTable=postgres://... to the store setting`,
  })

/** The store a parsed setting names, with its key table (SubjectKeys). */
export const layerStoreOf = (
  store: StoreSetting,
  options: OpenOptions = {},
): Layer.Layer<EventStore | SubjectKeys, StoreError> => {
  switch (store._tag) {
    case "Sqlite":
      return withSqlitePath(store, options, layerSqlite)
    case "Postgres":
      return layerPostgres(store.url, postgresOptionsOf(store, options))
    case "KurrentDb":
      return Layer.merge(
        // Loaded for a KurrentDB setting alone: its client takes about 0.2 s
        // to load, which every start of the gateway, the notifier and the
        // audit's command line paid on any store.
        Layer.unwrap(
          Effect.map(
            Effect.promise(() => import("@mizan/store-kurrentdb")),
            ({ layerKurrentDb }) => layerKurrentDb(store.connectionString),
          ),
        ),
        store.keyTable === undefined ? noKeyTable("KurrentDB") : layerKeyTableOf(store.keyTable, options),
      )
  }
}

/** `layerOf` on the SQLite file of `store` at its level, or the layer's failure when the path cannot be opened as asked. */
const withSqlitePath = <Services>(
  store: Extract<StoreSetting, { readonly _tag: "Sqlite" }>,
  options: OpenOptions,
  layerOf: (path: string, options: { readonly synchronous?: Synchronous }) => Layer.Layer<Services, StoreError>,
): Layer.Layer<Services, StoreError> => {
  const refusal = sqlitePathRefusal(store.path, options)
  return refusal === undefined
    ? layerOf(store.path, withoutUndefined({ synchronous: store.synchronous }))
    : Layer.effectContext(Effect.fail(refusal))
}

/** The schema and `mustExist` of a PostgreSQL setting, as its store and its key table alone are opened with. */
const postgresOptionsOf = (store: Extract<StoreSetting, { readonly _tag: "Postgres" }>, options: OpenOptions) => ({
  ...withoutUndefined({ schema: store.schema }),
  ...(options.mustExist === true ? { mustExist: true } : {}),
})

/**
 * The key table of a SQLite file or a PostgreSQL database, alone, for a
 * store that holds events only. A SQLite file syncs each new data key
 * before answering it (`layerSqliteKeyTable`): no append to that file
 * carries it to disk before the events that name it are acknowledged
 * elsewhere. PostgreSQL's commits are durable as they are acknowledged.
 */
export const layerKeyTableOf = (
  keyTable: KeyTableSetting,
  options: OpenOptions = {},
): Layer.Layer<SubjectKeys, StoreError> =>
  keyTable._tag === "Sqlite"
    ? withSqlitePath(keyTable, options, layerSqliteKeyTable)
    : layerPostgresKeyTable(keyTable.url, postgresOptionsOf(keyTable, options))

/** The store a setting names; a setting that names none fails the layer with a StoreError saying why. */
export const layerStore = (
  setting: string,
  baseDir: string,
  options: OpenOptions = {},
): Layer.Layer<EventStore | SubjectKeys, StoreError> => {
  const parsed = parseStoreSetting(setting, baseDir)
  return Result.isSuccess(parsed)
    ? layerStoreOf(parsed.success, options)
    : Layer.effectContext(Effect.fail(new StoreError({ reason: "InvalidRequest", detail: parsed.failure })))
}

/**
 * A store (with its key table) under sealing: the EventStore provided is the
 * sealed one (libs/eventsourcing/src/sealing/), and `Sealing` forgets.
 * `storeLayer` is what `layerStore` or `layerStoreOf` gives; `keyRing` may
 * fail in the caller's own words (the audit names its master key file so).
 */
export const layerSealed = <E, R, KeyRingFailure = StoreError>(
  storeLayer: Layer.Layer<EventStore | SubjectKeys, E, R>,
  keyRing: Layer.Layer<KeyRing, KeyRingFailure>,
  plan: SealingPlan,
  options: SealingOptions = {},
): Layer.Layer<EventStore | Sealing | SubjectKeys | KeyRing, E | KeyRingFailure | StoreError, R> =>
  layerSealedEventStore(plan, options).pipe(Layer.provideMerge(Layer.merge(storeLayer, keyRing)))

/**
 * Work one process at a time does among all on the store a setting names
 * (the notifier's deliveries): an advisory lock on PostgreSQL, a lock file
 * beside a SQLite store. KurrentDB offers neither to this adapter: there the
 * work is exclusive only within one process, so run one notifier.
 */
export const layerExclusiveWorkOf = (store: StoreSetting): Layer.Layer<ExclusiveWork> => {
  switch (store._tag) {
    case "Sqlite":
      return layerSqliteExclusiveWork(store.path)
    case "Postgres":
      return layerPostgresExclusiveWork(store.url, withoutUndefined({ schema: store.schema }))
    case "KurrentDb":
      return Layer.succeed(ExclusiveWork, inProcessExclusiveWork())
  }
}

/** The exclusive work of the store a setting names; a setting that names none has nothing to share. */
export const layerExclusiveWork = (setting: string, baseDir: string): Layer.Layer<ExclusiveWork> => {
  const parsed = parseStoreSetting(setting, baseDir)
  return Result.isSuccess(parsed)
    ? layerExclusiveWorkOf(parsed.success)
    : Layer.succeed(ExclusiveWork, inProcessExclusiveWork())
}

export * from "./masterKeyFile.ts"
export * from "./rotation.ts"
