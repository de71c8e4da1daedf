/**
 * Master key rotation (issue 15): every data key is re-wrapped under a new
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
 */
import { type KeyRingShape, keyRingOfMasterKeys, newMasterKey, type SubjectKeysShape } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { keyFileCheckMs, readMasterKeyFile, writeMasterKeyFile } from "./masterKeyFile.ts"

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

/** One pass over the live keys: re-wraps each one not under `currentId`; answers how many it re-wrapped and how many it saw left. */
const rewrapPass = (keys: SubjectKeysShape, ring: KeyRingShape, currentId: string, pageSizeKeys: number) =>
  Effect.gen(function* () {
    let after = ""
    let rewrapped = 0
    let stale = 0
    while (true) {
      const page = yield* keys.liveKeys(after, pageSizeKeys)
      if (page.length === 0) return { rewrapped, stale }
      for (const key of page) {
        if (key.masterKeyId === currentId || key.wrappedKey === undefined) continue
        stale++
        const dataKey = yield* ring.unwrap({ wrapped: key.wrappedKey, masterKeyId: key.masterKeyId })
        const { wrapped, masterKeyId } = yield* ring.wrap(dataKey)
        if (yield* keys.rewrap(key.keyId, key.masterKeyId, wrapped, masterKeyId)) rewrapped++
      }
      after = page.at(-1)?.keyId ?? after
    }
  })

export const rotateMasterKey = (path: string, keys: SubjectKeysShape, options: RotationOptions) =>
  Effect.gen(function* () {
    const before = yield* Effect.try(() => readMasterKeyFile(path))
    const added = newMasterKey()
    yield* Effect.try(() => writeMasterKeyFile(path, [...before, added]))
    yield* Effect.sleep(options.settleMs ?? 2 * keyFileCheckMs)
    const ring = keyRingOfMasterKeys([...before, added])
    let rewrapped = 0
    // Another pass while the last one found stale keys: a process that had not yet read the new key may have added one.
    while (true) {
      const pass = yield* rewrapPass(keys, ring, added.id, options.pageSizeKeys ?? 1_000)
      rewrapped += pass.rewrapped
      if (pass.stale === 0) break
    }
    if (options.retire) yield* Effect.try(() => writeMasterKeyFile(path, [added]))
    return {
      masterKeyId: added.id,
      rewrapped,
      retired: options.retire ? before.map((key) => key.id) : [],
    } satisfies RotationOutcome
  })
