import { Effect, Layer } from "effect"
import { type SubjectKey, SubjectKeys, type SubjectKeysShape } from "./SubjectKeys.ts"

/** The key table in memory: the reference adapter for tests and the memory store. */
export const makeMemorySubjectKeys = (): SubjectKeysShape => {
  const keys = new Map<string, SubjectKey>()
  const liveKeyOf = (subjectId: string) =>
    [...keys.values()].find((key) => key.subjectId === subjectId && key.wrappedKey !== undefined)
  return {
    liveKeyOf: (subjectId) => Effect.sync(() => liveKeyOf(subjectId)),
    keyById: (keyId) => Effect.sync(() => keys.get(keyId)),
    keysById: (keyIds) => Effect.sync(() => [...new Set(keyIds)].flatMap((keyId) => keys.get(keyId) ?? [])),
    addKey: (key) =>
      Effect.sync(() => {
        if (key.wrappedKey === undefined) {
          if (!keys.has(key.keyId)) keys.set(key.keyId, key)
          return keys.get(key.keyId) ?? key
        }
        const live = liveKeyOf(key.subjectId)
        if (live !== undefined) return live
        keys.set(key.keyId, key)
        return key
      }),
    forget: (subjectId, at, by) =>
      Effect.sync(() => {
        let destroyed = 0
        for (const key of keys.values())
          if (key.subjectId === subjectId && key.wrappedKey !== undefined) {
            const { wrappedKey: _destroyed, ...kept } = key
            keys.set(key.keyId, { ...kept, forgottenAt: at, forgottenBy: by })
            destroyed += 1
          }
        return destroyed
      }),
    allKeys: (afterKeyId, maxCount) =>
      Effect.sync(() =>
        [...keys.values()]
          .filter((key) => key.keyId > afterKeyId)
          .sort((a, b) => (a.keyId < b.keyId ? -1 : 1))
          .slice(0, maxCount),
      ),
    liveKeys: (afterKeyId, maxCount) =>
      Effect.sync(() =>
        [...keys.values()]
          .filter((key) => key.wrappedKey !== undefined && key.keyId > afterKeyId)
          .sort((a, b) => (a.keyId < b.keyId ? -1 : 1))
          .slice(0, maxCount),
      ),
    rewrap: (keyId, fromMasterKeyId, wrappedKey, masterKeyId) =>
      Effect.sync(() => {
        const key = keys.get(keyId)
        if (key?.wrappedKey === undefined || key.masterKeyId !== fromMasterKeyId) return false
        keys.set(keyId, { ...key, wrappedKey, masterKeyId })
        return true
      }),
  }
}

export const layerMemorySubjectKeys: Layer.Layer<SubjectKeys> = Layer.sync(SubjectKeys, makeMemorySubjectKeys)
