/**
 * A KeyRing over master keys held in this process (read from the key file
 * by `@mizan/stores`, or made for a test). Data keys are wrapped with
 * AES-256-GCM under the current master key, the wrapping bound to the
 * master key's id.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { cipherKeyOf, dataKeyBytes, openBytes, sealBytes } from "./cipher.ts"
import { KeyRingError, type KeyRingShape } from "./KeyRing.ts"

export interface MasterKey {
  /** Names the key in every data key it wraps; never reused for other key bytes. */
  readonly id: string
  /** 32 bytes. */
  readonly key: Uint8Array
}

export const masterKeyBytes = 32

/** A fresh master key, named by when it was made and a random part. */
export const newMasterKey = (now: Date = new Date()): MasterKey => ({
  id: `mk-${now.toISOString().slice(0, 10)}-${randomBytes(4).toString("hex")}`,
  key: randomBytes(masterKeyBytes),
})

const wrapContext = (masterKeyId: string) => `mizan data key\u0000${masterKeyId}`

/** The key ring of `keys`, the last one current. Throws when there is none or one is not 32 bytes. */
export const keyRingOfMasterKeys = (keys: ReadonlyArray<MasterKey>): KeyRingShape => {
  const current = keys.at(-1)
  if (current === undefined) throw new Error("a key ring needs at least one master key")
  for (const key of keys)
    if (key.key.length !== masterKeyBytes)
      throw new Error(`master key ${key.id} is ${key.key.length} bytes, not ${masterKeyBytes}`)
  // Key objects, made once: node:crypto takes raw key bytes four times slower, checking what they are at each call.
  const byId = new Map(keys.map((key) => [key.id, cipherKeyOf(key.key)]))
  const currentKey = byId.get(current.id)!
  return {
    currentMasterKeyId: Effect.succeed(current.id),
    wrap: (dataKey) =>
      dataKey.length === dataKeyBytes
        ? Effect.succeed({ wrapped: sealBytes(currentKey, dataKey, wrapContext(current.id)), masterKeyId: current.id })
        : Effect.fail(new KeyRingError({ detail: `a data key is ${dataKeyBytes} bytes, not ${dataKey.length}` })),
    unwrap: ({ wrapped, masterKeyId }) => {
      const master = byId.get(masterKeyId)
      if (master === undefined)
        return Effect.fail(
          new KeyRingError({
            detail: `master key ${masterKeyId} is not in the key ring (retired, or another key file)`,
          }),
        )
      const opened = openBytes(master, wrapped, wrapContext(masterKeyId))
      // Named first: a wrong key file under the right id is a likelier mistake than an edited key table.
      return opened === undefined
        ? Effect.fail(
            new KeyRingError({
              detail: `a data key wrapped by ${masterKeyId} does not unwrap: the master key file holds another key under that id, or the wrapped key was altered`,
            }),
          )
        : Effect.succeed(opened)
    },
  }
}
