/**
 * The master key file: the default KeyRing, kept outside the
 * store, mode 0600. JSON, `{ "masterKeys": [{ "id": ..., "key": Base64 }] }`,
 * the last key current. Rotation (`npm run audit -- rotate-master-key`)
 * adds a key at the end and, with --retire, removes the older ones once no
 * data key is wrapped by them. A running process reads the file again when
 * it changed, at most every `keyFileCheckMs`, so that a rotation reaches
 * it without a restart.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import {
  fileErrorReason,
  KeyRing,
  KeyRingError,
  type KeyRingShape,
  keyRingOfMasterKeys,
  type MasterKey,
  masterKeyBytes,
  newMasterKey,
  StoreError,
  SubjectKeys,
} from "@mizan/eventsourcing"
import { Effect, Layer } from "effect"

/** How often a process looks whether its key file changed: the bound a rotation waits before re-wrapping. */
export const keyFileCheckMs = 5_000

/** How a message names the setting that names the file: " (masterKeyFile)", or nothing for a caller that names none. */
const namedBy = (settingName: string | undefined): string => (settingName === undefined ? "" : ` (${settingName})`)

/** The sentence a master key file that does not read is refused with: the file system's reason in plain words. */
const unreadable = (path: string, settingName: string | undefined, error: unknown): Error =>
  new Error(`cannot read the master key file ${path}${namedBy(settingName)}: ${fileErrorReason(error)}`, {
    cause: error,
  })

/**
 * When the file at `path` last changed, or undefined when there is none. A
 * file that cannot be looked at (in a folder this user may not enter) is
 * refused as one that does not read, in the same words.
 */
const modifiedAtMs = (path: string, settingName: string | undefined): number | undefined => {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs
  } catch (error) {
    throw unreadable(path, settingName, error)
  }
}

/**
 * The master keys in the file at `path`; throws a sentence naming the file,
 * the setting that names it when given, and what is wrong: a file that does
 * not read in the file system's plain words, apart from one that is not JSON.
 */
export const readMasterKeyFile = (path: string, settingName?: string): ReadonlyArray<MasterKey> => {
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch (error) {
    throw unreadable(path, settingName, error)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(`master key file ${path}${namedBy(settingName)} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    })
  }
  const entries = (parsed as { masterKeys?: unknown }).masterKeys
  if (!Array.isArray(entries) || entries.length === 0)
    throw new Error(`master key file ${path}${namedBy(settingName)}: masterKeys must list at least one key`)
  return entries.map((entry: { id?: unknown; key?: unknown }, i) => {
    if (typeof entry.id !== "string" || entry.id === "")
      throw new Error(`master key file ${path}${namedBy(settingName)}: masterKeys[${i}].id must be a non-empty string`)
    const key = typeof entry.key === "string" ? Buffer.from(entry.key, "base64") : Buffer.alloc(0)
    if (key.length !== masterKeyBytes)
      throw new Error(
        `master key file ${path}${namedBy(settingName)}: masterKeys[${i}].key must be ${masterKeyBytes} bytes in Base64`,
      )
    return { id: entry.id, key }
  })
}

/** Writes `keys` to `path` (mode 0600), whole or not at all: through a temporary file renamed over it. */
export const writeMasterKeyFile = (path: string, keys: ReadonlyArray<MasterKey>): void => {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  const text = JSON.stringify(
    { masterKeys: keys.map((key) => ({ id: key.id, key: Buffer.from(key.key).toString("base64") })) },
    null,
    2,
  )
  writeFileSync(temporary, `${text}\n`, { mode: 0o600 })
  chmodSync(temporary, 0o600)
  renameSync(temporary, path)
}

export interface KeyFileOptions {
  /** How often to look whether the file changed (default `keyFileCheckMs`). */
  readonly checkMs?: number
  /** Make the file with a fresh master key when it is absent (sandbox mode); otherwise a missing file is refused. */
  readonly createWhenMissing: boolean
  /** The setting that names the file, for the refusal's message: `masterKeyFile`, `MIZAN_MASTER_KEY_FILE`. */
  readonly settingName: string
}

/**
 * A key ring over the file at `path` that reads the file again when it
 * changed, checked at most every `checkMs` (default `keyFileCheckMs`); a
 * file that does not read is refused naming `settingName`, when given.
 */
export const keyRingOfFile = (
  path: string,
  options: Pick<Partial<KeyFileOptions>, "checkMs" | "settingName"> = {},
): KeyRingShape => {
  const { checkMs = keyFileCheckMs, settingName } = options
  // Taken before the read: a change made during it is read at the next check.
  let loadedMtimeMs = modifiedAtMs(path, settingName)
  let ring = keyRingOfMasterKeys(readMasterKeyFile(path, settingName))
  let checkedAt = Date.now()
  const current = Effect.try({
    try: () => {
      const now = Date.now()
      if (now - checkedAt >= checkMs) {
        checkedAt = now
        const mtimeMs = modifiedAtMs(path, settingName)
        if (mtimeMs !== loadedMtimeMs) {
          ring = keyRingOfMasterKeys(readMasterKeyFile(path, settingName))
          loadedMtimeMs = mtimeMs
        }
      }
      return ring
    },
    catch: (error) => new KeyRingError({ detail: (error as Error).message, cause: error }),
  })
  return {
    currentMasterKeyId: Effect.flatMap(current, (r) => r.currentMasterKeyId),
    wrap: (dataKey) => Effect.flatMap(current, (r) => r.wrap(dataKey)),
    unwrap: (key) => Effect.flatMap(current, (r) => r.unwrap(key)),
  }
}

/**
 * The sentence for a StoreError the key ring caused while a store was
 * opened or read under sealing: a data key of the store's (the keyed ids'
 * secret first) does not unwrap under the master keys of the file at
 * `path` (another store's file, a key replaced). The file's fault, named
 * with its setting, not the store's; undefined for any other StoreError.
 */
export const keyFileRefusalOf = (path: string, settingName: string, error: StoreError): string | undefined =>
  error.cause instanceof KeyRingError
    ? `the master key file ${path} (${settingName}) does not open the store's data keys: ${error.detail}`
    : undefined

/** The KeyRing of the master key file at `path`; a missing file is made (sandbox) or refused naming the setting. */
export const layerKeyFile = (path: string, options: KeyFileOptions): Layer.Layer<KeyRing, StoreError> =>
  Layer.effect(
    KeyRing,
    Effect.try({
      try: () => {
        // Not existsSync: it answers false for a file it may not look at, which then read as missing.
        if (modifiedAtMs(path, options.settingName) === undefined) {
          if (!options.createWhenMissing)
            throw new Error(
              `the master key file ${path} does not exist: set ${options.settingName} to the file that holds the master keys (only sandbox mode makes one)`,
            )
          writeMasterKeyFile(path, [newMasterKey()])
        }
        return keyRingOfFile(path, options)
      },
      catch: (error) => new StoreError({ reason: "Unavailable", detail: (error as Error).message, cause: error }),
    }),
  )

/**
 * The KeyRing of the master key file at `path`, made when missing (sandbox
 * mode) only for a key table that holds no live key. A store that holds
 * some was written under a master key a new file lacks: none of its data
 * would open, and the file made would stand where the lost one is to be
 * put back, so the missing file is refused, naming the master key to find.
 */
export const layerSandboxKeyFile = (path: string, settingName: string): Layer.Layer<KeyRing, StoreError, SubjectKeys> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const missing = yield* Effect.try({
        try: () => modifiedAtMs(path, settingName) === undefined,
        catch: (error) => new StoreError({ reason: "Unavailable", detail: (error as Error).message, cause: error }),
      })
      const [held] = missing ? yield* (yield* SubjectKeys).liveKeys("", 1) : []
      if (held !== undefined)
        return yield* new StoreError({
          reason: "Unavailable",
          detail: `the master key file ${path} (${settingName}) does not exist, and the store holds data keys wrapped by master key ${held.masterKeyId}: put back the file that holds it (a new master key would open none of them, so none was made)`,
        })
      return layerKeyFile(path, { createWhenMissing: true, settingName })
    }),
  )
