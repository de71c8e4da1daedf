/**
 * Master key rotation: every data key is re-wrapped under a new
 * master key, and not one event is rewritten. Safe while gateways write:
 *
 * 1. the new key is added at the end of the key file, so it is current;
 * 2. the rotation waits `settleMs` (twice the processes' key file check),
 *    so that every process wraps the keys it adds under the new one;
 * 3. it re-wraps every live data key still under an older master key, a
 *    page at a time (`SubjectKeys.rewrap` only replaces a wrapping that is
 *    still the one read, so a concurrent forget wins), and passes again
 *    until a pass finds none left;
 * 4. with `retire`, it removes the older master keys from the file: copies
 *    of the key table in backups and logs, wrapped under them, can then no
 *    longer be opened by anyone, which is how a forget reaches them too.
 *
 * It fails with what went wrong, typed: the key file cannot be read or
 * written (`MasterKeyFileError`), a data key cannot be re-wrapped
 * (`RewrapError`), or the key table cannot be read or written (`StoreError`).
 */
import {
  fileWriteErrorReason,
  type KeyRingError,
  type KeyRingShape,
  keyRingOfMasterKeys,
  type MasterKey,
  newMasterKey,
  type StoreError,
  type SubjectKey,
  type SubjectKeysShape,
} from "@mizan/eventsourcing"
import { Effect, Schema } from "effect"
import { keyFileCheckMs, readMasterKeyFile, writeMasterKeyFile } from "./masterKeyFile.ts"

/** The master key file cannot be read (missing, not JSON, a bad key) or written; `detail` names the file. */
export class MasterKeyFileError extends Schema.TaggedError<MasterKeyFileError>()("MasterKeyFileError", {
  path: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return this.detail
  }
}

/**
 * A live data key that the rotation cannot re-wrap: wrapped by a master key
 * the file no longer holds, or altered. Nothing after it is re-wrapped; the
 * keys before it are, and a second rotation goes on from there.
 */
export class RewrapError extends Schema.TaggedError<RewrapError>()("RewrapError", {
  keyId: Schema.String,
  masterKeyId: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `data key ${this.keyId}, wrapped by master key ${this.masterKeyId}, cannot be re-wrapped: ${this.detail}`
  }
}

export type RotationError = MasterKeyFileError | RewrapError | StoreError

export interface RotationOptions {
  /** Remove the older master keys once nothing is wrapped by them. */
  readonly retire: boolean
  /** How long to wait after adding the new key for every process to read it (default twice `keyFileCheckMs`). */
  readonly settleMs?: number
  /** Data keys re-wrapped per page. */
  readonly pageSizeKeys?: number
}

export interface RotationOutcome {
  readonly masterKeyId: string
  readonly rewrapped: number
  readonly retired: ReadonlyArray<string>
}

const readKeys = (path: string) =>
  Effect.try({
    try: () => readMasterKeyFile(path),
    catch: (error) => new MasterKeyFileError({ path, detail: (error as Error).message }),
  })

const writeKeys = (path: string, keys: ReadonlyArray<MasterKey>) =>
  Effect.try({
    try: () => writeMasterKeyFile(path, keys),
    catch: (error) =>
      new MasterKeyFileError({
        path,
        detail: `master key file ${path} cannot be written: ${fileWriteErrorReason(error)}`,
      }),
  })

/** The data key of `key` wrapped under the ring's current master key. */
const rewrapped = (ring: KeyRingShape, key: SubjectKey & { readonly wrappedKey: string }) =>
  Effect.flatMap(ring.unwrap({ wrapped: key.wrappedKey, masterKeyId: key.masterKeyId }), ring.wrap).pipe(
    Effect.mapError(
      (error: KeyRingError) =>
        new RewrapError({ keyId: key.keyId, masterKeyId: key.masterKeyId, detail: error.detail }),
    ),
  )

/** One pass over the live keys: re-wraps each one not under `currentId`; answers how many it re-wrapped and how many it saw left. */
const rewrapPass = Effect.fnUntraced(function* (
  keys: SubjectKeysShape,
  ring: KeyRingShape,
  currentId: string,
  pageSizeKeys: number,
) {
  let after = ""
  let rewrappedKeys = 0
  let stale = 0
  while (true) {
    const page = yield* keys.liveKeys(after, pageSizeKeys)
    if (page.length === 0) return { rewrapped: rewrappedKeys, stale }
    for (const key of page) {
      if (key.masterKeyId === currentId || key.wrappedKey === undefined) continue
      stale++
      const { wrapped, masterKeyId } = yield* rewrapped(ring, { ...key, wrappedKey: key.wrappedKey })
      if (yield* keys.rewrap(key.keyId, key.masterKeyId, wrapped, masterKeyId)) rewrappedKeys++
    }
    after = page.at(-1)?.keyId ?? after
  }
})

export const rotateMasterKey = Effect.fnUntraced(function* (
  path: string,
  keys: SubjectKeysShape,
  options: RotationOptions,
) {
  const before = yield* readKeys(path)
  const added = newMasterKey()
  yield* writeKeys(path, [...before, added])
  yield* Effect.sleep(options.settleMs ?? 2 * keyFileCheckMs)
  const ring = keyRingOfMasterKeys([...before, added])
  let rewrappedKeys = 0
  // Another pass while the last one found stale keys: a process that had not yet read the new key may have added one.
  while (true) {
    const pass = yield* rewrapPass(keys, ring, added.id, options.pageSizeKeys ?? 1_000)
    rewrappedKeys += pass.rewrapped
    if (pass.stale === 0) break
  }
  if (options.retire) yield* writeKeys(path, [added])
  return {
    masterKeyId: added.id,
    rewrapped: rewrappedKeys,
    retired: options.retire ? before.map((key) => key.id) : [],
  }
})
