/**
 * The keyed ids of data subjects and of the streams whose ids are personal:
 * an HMAC under the key table's equality secret, so that the same card or
 * member is one subject across events without its value in clear. A keyed id
 * costs an HMAC and the same ones come back often, so each is remembered.
 */
import type { CipherKey } from "./cipher.ts"
import { keyedDigest } from "./cipher.ts"
import { remembering } from "./keyCache.ts"

/** The stream categories whose ids hold a keyed digest, marked so that a stored id is never digested twice. */
export const keyedPartPrefix = "keyed:"

export interface SubjectIds {
  /** `kind:` and the keyed HMAC of `value`: the id of a data subject. */
  readonly subjectIdOf: (kind: string, value: string) => string
  /** The subject of `kind` that an event of the stored stream names by no value of its own. */
  readonly streamSubjectIdOf: (kind: string, storedStreamId: string) => string
  /** The id a stream is stored under: a sealed category's personal part becomes its keyed HMAC. */
  readonly storedStreamIdOf: (streamId: string) => string
}

/** The ids under `equalitySecret`, streams of `sealedCategories` keyed, at most `maxKeys` of each remembered. */
export const makeSubjectIds = (
  equalitySecret: CipherKey,
  maxKeys: number,
  sealedCategories: ReadonlySet<string>,
): SubjectIds => {
  // A subject's id by kind, then by value: no key string put together per lookup (the plan names a handful of kinds).
  const subjectIdsByKind = new Map<string, (value: string) => string>()
  const subjectIdOf = (kind: string, value: string) => {
    let ofKind = subjectIdsByKind.get(kind)
    if (ofKind === undefined) {
      ofKind = remembering(maxKeys, (each) => `${kind}:${keyedDigest(equalitySecret, kind, each)}`)
      subjectIdsByKind.set(kind, ofKind)
    }
    return ofKind(value)
  }

  /** `category/keyed:HMAC` of a stream id of a sealed category whose personal part is in clear. */
  const keyedStreamIdOf = remembering(maxKeys, (streamId) => {
    const slash = streamId.indexOf("/")
    const category = streamId.slice(0, slash)
    return `${category}/${keyedPartPrefix}${keyedDigest(equalitySecret, `stream ${category}`, streamId.slice(slash + 1))}`
  })

  const storedStreamIdOf = (streamId: string) => {
    const slash = streamId.indexOf("/")
    if (slash < 0) return streamId
    if (!sealedCategories.has(streamId.slice(0, slash)) || streamId.startsWith(keyedPartPrefix, slash + 1))
      return streamId
    return keyedStreamIdOf(streamId)
  }

  const streamSubjectIdOf = (kind: string, storedStreamId: string) => subjectIdOf(kind, `stream ${storedStreamId}`)
  return { subjectIdOf, streamSubjectIdOf, storedStreamIdOf }
}
