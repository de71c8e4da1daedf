/**
 * Which store the audit reads, from one setting (`--store` or MIZAN_STORE),
 * as the gateway reads it (libs/stores): `sqlite:PATH`, `postgres://...`
 * (`postgresql://...`; a `schema` query parameter names the PostgreSQL
 * schema, "mizan" by default) or `kurrentdb://...`. The audit opens an
 * existing SQLite file only: opening a missing one would create an empty
 * database and audit nothing.
 */
import { DatabaseSync } from "node:sqlite"
import {
  EventStore,
  equalitySubjectId,
  KeyRing,
  makeSealerOn,
  type Sealing,
  type StoreError,
  SubjectKeys,
  sealedEventStore,
} from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import {
  describeStore,
  keyFileRefusalOf,
  layerKeyFile,
  layerSealed,
  layerStoreOf,
  type OpenOptions,
  parseStoreSetting as parseSetting,
  type StoreSetting,
} from "@mizan/stores"
import { Cause, Context, Effect, Layer, Result, Schema } from "effect"

/**
 * Something the audit cannot do, in a sentence for the operator (never with a password or event data).
 * `readerGone`: standard output's reader closed the pipe (`| head`), which wants no more and no word.
 */
export class AuditError extends Schema.TaggedError<AuditError>()("AuditError", {
  detail: Schema.String,
  readerGone: Schema.optionalKey(Schema.Boolean),
}) {
  override get message(): string {
    return this.detail
  }
}

export type { StoreSetting } from "@mizan/stores"
export { describeStore, maskSetting } from "@mizan/stores"

export const storeEnvironmentVariable = "MIZAN_STORE"

export const masterKeyFileEnvironmentVariable = "MIZAN_MASTER_KEY_FILE"

/** Where the gateway makes the master key file by default (apps/gateway: beside its configuration in data/). */
export const masterKeyFileDefault = "data/master-keys.json"

/** How a refusal of the master key file names the setting that named it. */
const masterKeyFileSetting = `--master-key-file or ${masterKeyFileEnvironmentVariable}`

/** Reads a setting, as the gateway and the notifier do (a relative SQLite path is taken from `baseDir`). */
export const parseStoreSetting = (setting: string, baseDir: string): StoreSetting | AuditError => {
  const parsed = parseSetting(setting, baseDir)
  return Result.isFailure(parsed) ? new AuditError({ detail: parsed.failure }) : parsed.success
}

/**
 * A StoreError in the operator's words: what the store said, and what to do
 * when there is something to do. One the key ring caused, with
 * `masterKeyFile` (the file the command read), is that file's fault.
 */
export const auditErrorFromStore = (store: StoreSetting, error: StoreError, masterKeyFile?: string): AuditError => {
  const keyFileRefusal =
    masterKeyFile === undefined ? undefined : keyFileRefusalOf(masterKeyFile, masterKeyFileSetting, error)
  if (keyFileRefusal !== undefined) return new AuditError({ detail: keyFileRefusal })
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
export const failureMessage = (store: StoreSetting, cause: Cause.Cause<unknown>, masterKeyFile?: string): string => {
  const error = Cause.squash(cause)
  if (error instanceof AuditError) return error.detail
  if (typeof error === "object" && error !== null && (error as { _tag?: string })._tag === "StoreError")
    return auditErrorFromStore(store, error as StoreError, masterKeyFile).detail
  return Cause.pretty(cause)
}

/**
 * The EventStore of a setting, open for the layer's lifetime. Every command
 * but `import` opens with `mustExist`: an audit of a missing file would
 * create an empty database and report nothing broken.
 */
export const layerStore = (
  store: StoreSetting,
  options: OpenOptions,
): Layer.Layer<EventStore | SubjectKeys, AuditError> =>
  layerStoreOf(store, options).pipe(
    Layer.catchTag("StoreError", (error) => Layer.effectContext(Effect.fail(auditErrorFromStore(store, error)))),
  )

/** The master key file's KeyRing, its refusal in the operator's words; never made here: the gateway makes it. */
export const layerKeyFileOf = (masterKeyFile: string): Layer.Layer<KeyRing, AuditError> =>
  layerKeyFile(masterKeyFile, { createWhenMissing: false, settingName: masterKeyFileSetting }).pipe(
    // The file's own refusal, naming it and the setting: not "the store cannot be used".
    Layer.catchTag("StoreError", (error) =>
      Layer.effect(KeyRing, Effect.fail(new AuditError({ detail: error.detail }))),
    ),
  )

/**
 * The store with its sealed fields opened (docs/architecture.md#sealed-personal-data):
 * what replay, show and at read, as the domain sees it, with a forgotten
 * subject's fields as `[forgotten]`. A store that never sealed anything (its
 * key table holds no secret for keyed ids, or it has none, as a KurrentDB
 * store without `keyTable=`) reads as it is, and needs no master key file.
 */
export const layerOpenedStore = (
  store: StoreSetting,
  options: OpenOptions,
  masterKeyFile: string,
): Layer.Layer<EventStore, AuditError> =>
  Layer.effectContext(
    Effect.gen(function* () {
      const raw = yield* Layer.build(layerStore(store, options))
      const keys = Context.get(raw, SubjectKeys)
      // A KurrentDB store without a keyTable has a key table that holds nothing (libs/stores): it reads as never sealed.
      const sealedBefore = (yield* keys.liveKeyOf(equalitySubjectId)) !== undefined
      if (!sealedBefore) return Context.make(EventStore, Context.get(raw, EventStore))
      const keyRing = yield* Layer.build(layerKeyFileOf(masterKeyFile))
      const sealer = yield* makeSealerOn(mizanSealingPlan, keys, Context.get(keyRing, KeyRing))
      return Context.make(EventStore, sealedEventStore(Context.get(raw, EventStore), sealer))
    }).pipe(
      Effect.mapError((error) =>
        error instanceof AuditError ? error : auditErrorFromStore(store, error, masterKeyFile),
      ),
    ),
  )

/** The store under sealing, with `Sealing` (to forget) and the raw key table: for forget and rotate-master-key. */
export const layerSealingStore = (
  store: StoreSetting,
  masterKeyFile: string,
): Layer.Layer<EventStore | Sealing | SubjectKeys, AuditError> =>
  layerSealed(layerStoreOf(store, { mustExist: true }), layerKeyFileOf(masterKeyFile), mizanSealingPlan).pipe(
    Layer.catchTag("StoreError", (error) =>
      Layer.effectContext(Effect.fail(auditErrorFromStore(store, error, masterKeyFile))),
    ),
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
