/**
 * Which store the audit reads, from one setting (`--store` or MIZAN_STORE),
 * as the gateway reads it (libs/stores): `sqlite:PATH`, `postgres://...`
 * (`postgresql://...`; a `schema` query parameter names the PostgreSQL
 * schema, "mizan" by default) or `kurrentdb://...`. The audit opens an
 * existing SQLite file only: opening a missing one would create an empty
 * database and audit nothing.
 */
import { DatabaseSync } from "node:sqlite"
import { EventStore, type StoreError } from "@mizan/eventsourcing"
import {
  describeStore,
  layerStoreOf,
  type OpenOptions,
  parseStoreSetting as parseSetting,
  type StoreSetting,
} from "@mizan/stores"
import { Cause, Data, Effect, Layer, Result } from "effect"

/** Something the audit cannot do, in a sentence for the operator (never with a password or event data). */
export class AuditError extends Data.TaggedError("AuditError")<{ readonly detail: string }> {
  override get message(): string {
    return this.detail
  }
}

export type { StoreSetting } from "@mizan/stores"
export { describeStore, maskSetting } from "@mizan/stores"

export const storeEnvironmentVariable = "MIZAN_STORE"

/** Reads a setting, as the gateway and the notifier do (a relative SQLite path is taken from `baseDir`). */
export const parseStoreSetting = (setting: string, baseDir: string): StoreSetting | AuditError => {
  const parsed = parseSetting(setting, baseDir)
  return Result.isFailure(parsed) ? new AuditError({ detail: parsed.failure }) : parsed.success
}

/** A StoreError in the operator's words: what the store said, and what to do when there is something to do. */
export const auditErrorFromStore = (store: StoreSetting, error: StoreError): AuditError => {
  const where = describeStore(store)
  switch (error.reason) {
    case "NewerSchema":
      return new AuditError({
        detail: `the store at ${where} was written by a newer version of Mizan than this audit (${error.detail}): run the audit of that version`,
      })
    case "Corrupt":
      return new AuditError({ detail: `the store at ${where} is damaged: ${error.detail}` })
    case "Locked":
      return new AuditError({ detail: `the store at ${where} is locked by another process: ${error.detail}` })
    default:
      return new AuditError({ detail: `the store at ${where} cannot be used (${error.reason}): ${error.detail}` })
  }
}

/** Why a command failed, in the operator's words: an AuditError as it is, a StoreError as `auditErrorFromStore` says it. */
export const failureMessage = (store: StoreSetting, cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (error instanceof AuditError) return error.detail
  if (typeof error === "object" && error !== null && (error as { _tag?: string })._tag === "StoreError")
    return auditErrorFromStore(store, error as StoreError).detail
  return Cause.pretty(cause)
}

/**
 * The EventStore of a setting, open for the layer's lifetime. Every command
 * but `import` opens with `mustExist`: an audit of a missing file would
 * create an empty database and report nothing broken.
 */
export const layerStore = (store: StoreSetting, options: OpenOptions): Layer.Layer<EventStore, AuditError> =>
  layerStoreOf(store, options).pipe(
    Layer.catchTag("StoreError", (error) => Layer.effect(EventStore, Effect.fail(auditErrorFromStore(store, error)))),
  )

/**
 * How many events the store holds, when that is cheap to know: for the
 * progress bar's time left. SQLite numbers its log 1..n without gaps (its
 * README, The global order), so the last position is the count; it is read
 * on a read-only connection of its own. Other stores answer undefined, and
 * the bar shows the rate without a time left.
 */
export const eventCountOf = (store: StoreSetting): number | undefined => {
  if (store._tag !== "Sqlite") return undefined
  try {
    const db = new DatabaseSync(store.path, { readOnly: true })
    try {
      const row = db.prepare("SELECT max(global_position) AS last FROM events").get() as { last: number | null }
      return row.last ?? 0
    } finally {
      db.close()
    }
  } catch {
    return undefined
  }
}
