/**
 * A sealing plan read once, when the sealer is made: each subject's paths
 * into steps, checked; then, per event, the fields each subject holds, by
 * the subject's id.
 */
import { forgotten } from "@mizan/kernel"
import { unkeyedDigestHex } from "./cipher.ts"
import { itemStepsOf, listDepthOf, pathOf, type Steps, startsWith, stepsOf, valueAt } from "./paths.ts"
import type { SealedSubject, SealingPlan } from "./plan.ts"
import type { SubjectIds } from "./subjectIds.ts"

/** One subject's fields an event holds, to seal: their paths, their names as stored, their values. */
export interface PlannedFields {
  readonly fields: Array<Steps>
  readonly names: Array<string>
  readonly values: Array<unknown>
}

export interface PlannedSubject extends PlannedFields {
  readonly subjectId: string
}

/** A plan's subject with its paths read into steps once, when the sealer is made. */
export interface CompiledSubject {
  readonly kind: string
  readonly identifiedBy: Steps
  readonly fields: ReadonlyArray<Steps>
  /** The fields' paths as a stored entry names them, when none is in a list's items (`undefined` otherwise). */
  readonly names: ReadonlyArray<string> | undefined
  readonly onlyWhenIdentified: boolean
  readonly identifiedInClear: boolean
  readonly otherwiseStreamAt: Steps | undefined
}

/**
 * A plan's subject, its paths read into steps. A subject identified inside
 * a list's items owns fields of its own item only: a field outside the
 * item would belong to every item's subject at once. Checked here, when
 * the sealer is made, naming the event type.
 */
const compileSubject = (type: string, subject: SealedSubject): CompiledSubject => {
  const identifiedBy = stepsOf(subject.identifiedBy)
  const fields = subject.fields.map(stepsOf)
  const depth = listDepthOf(identifiedBy)
  if (depth !== undefined) {
    const list = identifiedBy.slice(0, depth)
    const outside = fields.find((field) => !startsWith(field, list))
    if (outside !== undefined)
      throw new Error(
        `sealing plan of ${type}: ${pathOf(outside)} is not in the items of ${pathOf(list)}, where the subject ${subject.kind} is identified`,
      )
  }
  const listFree = depth === undefined && fields.every((field) => listDepthOf(field) === undefined)
  return {
    kind: subject.kind,
    identifiedBy,
    fields,
    names: listFree ? fields.map(pathOf) : undefined,
    onlyWhenIdentified: subject.onlyWhenIdentified === true,
    identifiedInClear: subject.identifiedInClear === true,
    otherwiseStreamAt: subject.otherwiseStreamAt === undefined ? undefined : stepsOf(subject.otherwiseStreamAt),
  }
}

export const compilePlan = (plan: SealingPlan): ReadonlyMap<string, ReadonlyArray<CompiledSubject>> =>
  new Map(
    Object.entries(plan.events).map(([type, subjects]) => [
      type,
      subjects.map((subject) => compileSubject(type, subject)),
    ]),
  )

/**
 * The subjects `subject` stands for in `data`: itself, or, when its
 * identifying field sits in a list's items, one per item, its paths into
 * that list narrowed to the item (`sharingParamList[0].sharingIdentity`).
 */
export const subjectsIn = (data: Record<string, unknown>, subject: CompiledSubject): ReadonlyArray<CompiledSubject> => {
  const depth = listDepthOf(subject.identifiedBy)
  if (depth === undefined) return [subject]
  const list = subject.identifiedBy.slice(0, depth)
  const items = valueAt(data, list.slice(0, -1))
  if (!Array.isArray(items)) return []
  return items.flatMap((_item, index) => {
    const narrowed = (steps: Steps) =>
      startsWith(steps, list) ? [...list.slice(0, -1), index, ...steps.slice(depth)] : steps
    return subjectsIn(data, {
      ...subject,
      identifiedBy: narrowed(subject.identifiedBy),
      fields: subject.fields.map(narrowed),
    })
  })
}

/**
 * The subject's fields present in `data` that hold a value (a
 * `[forgotten]` field has nothing left to seal) into `into`: their
 * paths, names and values, each read once.
 */
const fieldsToSeal = (data: Record<string, unknown>, subject: CompiledSubject, into: PlannedFields): void => {
  if (subject.onlyWhenIdentified && valueAt(data, subject.identifiedBy) === undefined) return
  const keep = (field: Steps, name: string) => {
    const value = valueAt(data, field)
    if (value === undefined || value === forgotten) return
    into.fields.push(field)
    into.names.push(name)
    into.values.push(value)
  }
  const names = subject.names
  if (names !== undefined) for (let i = 0; i < names.length; i++) keep(subject.fields[i]!, names[i]!)
  else for (const field of subject.fields) for (const item of itemStepsOf(data, field)) keep(item, pathOf(item))
}

/**
 * The id of the subject `data` names by `identifiedBy`; when it names
 * none, the subject of the stream `otherwiseStreamAt` names, or else of
 * the event's own stream.
 */
const subjectIn = (
  ids: SubjectIds,
  storedStreamId: string,
  data: Record<string, unknown>,
  subject: CompiledSubject,
): string => {
  const identifying = valueAt(data, subject.identifiedBy)
  if (identifying === undefined || identifying === forgotten) {
    const owner = subject.otherwiseStreamAt === undefined ? undefined : valueAt(data, subject.otherwiseStreamAt)
    return ids.streamSubjectIdOf(
      subject.kind,
      typeof owner === "string" && owner !== "" ? ids.storedStreamIdOf(owner) : storedStreamId,
    )
  }
  const value = typeof identifying === "string" ? identifying : JSON.stringify(identifying)
  return ids.subjectIdOf(subject.kind, subject.identifiedInClear ? unkeyedDigestHex(value) : value)
}

/**
 * The fields to seal, by subject id: a subject identified inside a
 * list's items is one subject per item (each sharing member), and the
 * items of one subject (a member named twice) share its one cipher.
 */
export const fieldsBySubject = (
  ids: SubjectIds,
  storedStreamId: string,
  data: Record<string, unknown>,
  subjects: ReadonlyArray<CompiledSubject>,
): ReadonlyArray<PlannedSubject> => {
  const planned: Array<PlannedSubject> = []
  for (const each of subjects)
    for (const subject of subjectsIn(data, each)) {
      const fields: PlannedFields = { fields: [], names: [], values: [] }
      fieldsToSeal(data, subject, fields)
      if (fields.fields.length === 0) continue
      const subjectId = subjectIn(ids, storedStreamId, data, subject)
      const same = planned.find((other) => other.subjectId === subjectId)
      if (same === undefined) planned.push({ subjectId, ...fields })
      else {
        same.fields.push(...fields.fields)
        same.names.push(...fields.names)
        same.values.push(...fields.values)
      }
    }
  return planned
}
