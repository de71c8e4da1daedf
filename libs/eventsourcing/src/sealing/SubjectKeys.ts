/**
 * The key table: one data key per data subject, wrapped by a master key,
 * kept apart from the events. Forgetting a subject destroys its
 * wrapped key and keeps who asked and when; no event changes, so the
 * tamper-evident chain still verifies. Every adapter passes the contract
 * suite in `@mizan/eventsourcing/testing` (subjectKeysContract.ts).
 */
import { Context, type Effect } from "effect"
import type { StoreError } from "../events.ts"

export interface SubjectKey {
  /** Named in each sealed value, so that a reader finds its key. */
  readonly keyId: string
  /** `kind:` and the keyed HMAC of the identifying value (sealedStore.ts): never the value itself. */
  readonly subjectId: string
  /** Absent once forgotten: the key is gone. */
  readonly wrappedKey?: string
  readonly masterKeyId: string
  /** ms since the epoch. */
  readonly createdAt: number
  readonly forgottenAt?: number
  readonly forgottenBy?: string
}

/**
 * A key as a SQL key table keeps it, a column each, in the order the SQLite
 * and PostgreSQL adapters name them: key id, subject id, wrapped key (null
 * once forgotten), master key id, created at, forgotten at and by (null
 * while live). One mapping both ways, so that no adapter drops a field the
 * other keeps.
 */
export type SubjectKeyColumns = readonly [
  keyId: string,
  subjectId: string,
  wrappedKey: string | null,
  masterKeyId: string,
  createdAt: number,
  forgottenAt: number | null,
  forgottenBy: string | null,
]

export const columnsOfSubjectKey = (key: SubjectKey): SubjectKeyColumns => [
  key.keyId,
  key.subjectId,
  key.wrappedKey ?? null,
  key.masterKeyId,
  key.createdAt,
  key.forgottenAt ?? null,
  key.forgottenBy ?? null,
]

export const subjectKeyOfColumns = ([
  keyId,
  subjectId,
  wrappedKey,
  masterKeyId,
  createdAt,
  forgottenAt,
  forgottenBy,
]: SubjectKeyColumns): SubjectKey => ({
  keyId,
  subjectId,
  ...(wrappedKey === null ? {} : { wrappedKey }),
  masterKeyId,
  createdAt,
  ...(forgottenAt === null ? {} : { forgottenAt }),
  ...(forgottenBy === null ? {} : { forgottenBy }),
})

export class SubjectKeys extends Context.Service<
  SubjectKeys,
  {
    /** The subject's key that is not forgotten, if it has one. */
    readonly liveKeyOf: (subjectId: string) => Effect.Effect<SubjectKey | undefined, StoreError>
    readonly keyById: (keyId: string) => Effect.Effect<SubjectKey | undefined, StoreError>
    /**
     * The keys of `keyIds` that the table holds, forgotten ones too, in one
     * lookup and in no particular order; an id it does not hold is left out.
     * What a read of a page of sealed events loads its keys with.
     */
    readonly keysById: (keyIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<SubjectKey>, StoreError>
    /**
     * Adds `key` unless its subject already has a live key, and answers the
     * subject's live key: `key`, or the one another writer added first. A
     * forgotten key (no `wrappedKey`, as an import brings it) is added as it
     * is, unless its id is taken, and answered.
     */
    readonly addKey: (key: SubjectKey) => Effect.Effect<SubjectKey, StoreError>
    /** Destroys every live key of the subject, noting when and by whom; answers how many. */
    readonly forget: (subjectId: string, at: number, by: string) => Effect.Effect<number, StoreError>
    /** One page of every key, forgotten ones too, by key id, after `afterKeyId` ("" for the first): what an export carries. */
    readonly allKeys: (afterKeyId: string, maxCount: number) => Effect.Effect<ReadonlyArray<SubjectKey>, StoreError>
    /** One page of the live keys, by key id, after `afterKeyId` ("" for the first): what a rotation re-wraps. */
    readonly liveKeys: (afterKeyId: string, maxCount: number) => Effect.Effect<ReadonlyArray<SubjectKey>, StoreError>
    /**
     * Replaces a live key's wrapping if it is still wrapped by `fromMasterKeyId`;
     * answers whether it did (a forgotten key, or one re-wrapped meanwhile, is left).
     */
    readonly rewrap: (
      keyId: string,
      fromMasterKeyId: string,
      wrappedKey: string,
      masterKeyId: string,
    ) => Effect.Effect<boolean, StoreError>
  }
>()("@mizan/eventsourcing/SubjectKeys") {}

export type SubjectKeysShape = SubjectKeys["Service"]
