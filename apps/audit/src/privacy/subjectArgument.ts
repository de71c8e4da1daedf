/**
 * The data subject a privacy command (forget, access) names: KIND:VALUE, or
 * KIND with --stream, checked against the kinds the sealing plan seals
 * before any store opens.
 */

import { subjectKindsOf } from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { AuditError } from "../common/stores.ts"
import type { SubjectTarget } from "./subjectAccess.ts"

/**
 * The subject KIND:VALUE names to `command` (forget, access): VALUE as the
 * events hold it, or in clear (both also try its SHA-256); or, with
 * --stream, KIND alone: the subject of that kind the stream's events name by
 * no value of their own.
 */
export const subjectOf = (
  command: string,
  text: string | undefined,
  streamId: string | undefined,
): SubjectTarget | AuditError => {
  if (streamId !== undefined)
    return text === undefined || !/^[a-zA-Z][a-zA-Z0-9]*$/.test(text)
      ? new AuditError({
          detail: `${command} --stream STREAM needs a KIND alone, as in ${command} payer --stream STREAM`,
        })
      : (unknownKind(command, text) ?? { _tag: "OfStream", kind: text, streamId })
  const colon = text?.indexOf(":") ?? -1
  if (text === undefined || colon < 1 || colon === text.length - 1)
    return new AuditError({ detail: `${command} needs KIND:VALUE, as in card:4111111111111111` })
  const kind = text.slice(0, colon)
  // In clear or as the events hold it: the value and its SHA-256 are both tried (subjectValuesOf).
  return unknownKind(command, kind) ?? { _tag: "ByValue", kind, value: text.slice(colon + 1) }
}

/** The kinds of subject whose personal data the events hold: the only ones a forget can find. */
const forgettableKinds = subjectKindsOf(mizanSealingPlan)

/**
 * A KIND no event holds, refused as a usage error before the store opens.
 * The sealed store refuses it too (a library caller's forget), as an
 * InvalidRequest; here the line names the argument.
 */
const unknownKind = (command: string, kind: string): AuditError | undefined =>
  forgettableKinds.includes(kind)
    ? undefined
    : new AuditError({ detail: `${command} KIND must be one of ${forgettableKinds.join(", ")}, not "${kind}"` })
