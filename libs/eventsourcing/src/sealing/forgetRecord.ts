/**
 * What a forget leaves in the log: one `SubjectForgotten` event on the
 * subject's `forgottenSubject/<subject id>` stream, saying who asked and
 * when, never what (the subject id is keyed, sealer.ts). The audit replays
 * these streams like any other (apps/audit/src/model/registry.ts).
 */
import type { BrokenRule } from "@mizan/kernel"
import { Effect, Result, Schema } from "effect"
import { makeEventCodec } from "../codec.ts"
import type { EventStoreShape } from "../EventStore.ts"
import type { StoreError } from "../events.ts"

export const forgottenSubjectStreamPrefix = "forgottenSubject/"

export const forgottenSubjectStream = (subjectId: string) => `${forgottenSubjectStreamPrefix}${subjectId}`

export const SubjectForgotten = Schema.TaggedStruct("SubjectForgotten", {
  subjectId: Schema.String,
  /** Who asked, as the operator gave it (`--by`). */
  by: Schema.String,
  /** ms since the epoch. */
  at: Schema.Number,
  keysDestroyed: Schema.Int,
  /**
   * The data key destroyed (a key id is no personal data: every sealed
   * value names its own). Lets a forget cut off between its record and the
   * key's destruction finish without a second record. Absent in records
   * written before it was kept.
   */
  keyId: Schema.optional(Schema.String),
})
export type SubjectForgotten = typeof SubjectForgotten.Type

export const forgottenSubjectCodec = makeEventCodec(SubjectForgotten, { SubjectForgotten: { current: 1 } })

/**
 * Every forget recorded of `subjectId` in `store`, oldest first, read as
 * stored (a forget record holds nothing sealed); a record that does not
 * decode is left out. What a forget checks before it records again, and
 * what an access request tells of a subject forgotten.
 */
export const forgetsRecordedOf = (
  store: EventStoreShape,
  subjectId: string,
): Effect.Effect<ReadonlyArray<SubjectForgotten>, StoreError> =>
  Effect.map(store.readStream(forgottenSubjectStream(subjectId)), (records) =>
    records.flatMap((record) => {
      const decoded = forgottenSubjectCodec.decode(record)
      return Result.isSuccess(decoded) ? [decoded.success] : []
    }),
  )

export type ForgottenSubjectState =
  | { readonly status: "ABSENT" }
  | { readonly status: "FORGOTTEN"; readonly forgets: ReadonlyArray<SubjectForgotten> }

export const forgottenSubjectInitialState: ForgottenSubjectState = { status: "ABSENT" }

export const evolveForgottenSubject = (
  state: ForgottenSubjectState,
  event: SubjectForgotten,
): ForgottenSubjectState => ({
  status: "FORGOTTEN",
  forgets: state.status === "ABSENT" ? [event] : [...state.forgets, event],
})

/** A forget is recorded only when it destroyed a key, and always says who asked. */
export const forgottenSubjectInvariants = (state: ForgottenSubjectState): ReadonlyArray<BrokenRule> =>
  state.status === "ABSENT"
    ? []
    : state.forgets.flatMap((forget) => [
        ...(forget.keysDestroyed > 0
          ? []
          : [{ rule: "a forget is recorded only when it destroyed a data key", detail: `by ${forget.by}` }]),
        ...(forget.by.trim() === "" ? [{ rule: "a forget says who asked", detail: "no name" }] : []),
      ])
