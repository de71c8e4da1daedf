/**
 * One event's data sealed and opened, given its keys: each subject's fields
 * into one AES-256-GCM box bound to the stored stream, the subject, the key
 * and the field names; and back. Plain functions that throw a StoreError
 * (`attempt` turns it into an effect's failure), so that a page whose keys
 * are all cached seals and opens with no effect per event.
 */
import { forgotten } from "@mizan/kernel"
import { Effect } from "effect"
import { StoreError } from "../events.ts"
import { sealedBoxAssociatedData } from "./associatedData.ts"
import { type CipherKey, openBytes, sealBytes } from "./cipher.ts"
import type { PlannedSubject } from "./compiledPlan.ts"
import type { CachedKey } from "./keyCache.ts"
import { copyWithout, type Steps, withValueAt } from "./paths.ts"
import { type SealedEntry, sealedField } from "./sealedEntry.ts"

/** `body` as an effect: a StoreError it throws is the effect's failure. */
export const attempt = <A>(body: () => A): Effect.Effect<A, StoreError> => {
  try {
    return Effect.succeed(body())
  } catch (error) {
    if (error instanceof StoreError) return Effect.fail(error)
    throw error
  }
}

/** The entry of one subject's fields, sealed under its live key; throws when the key row holds no key. */
const sealSubjectWith = (key: CachedKey, storedStreamId: string, planned: PlannedSubject): SealedEntry => {
  if (key.key === undefined) throw new StoreError({ reason: "Corrupt", detail: `live key ${key.keyId} has no key` })
  const { names, values } = planned
  const clear: Record<string, unknown> = {}
  for (let i = 0; i < names.length; i++) clear[names[i] as string] = values[i]
  const entry = { subject: planned.subjectId, key: key.keyId, fields: names }
  const box = sealBytes(
    key.key,
    Buffer.from(JSON.stringify(clear), "utf8"),
    sealedBoxAssociatedData(storedStreamId, entry),
  )
  return { ...entry, box }
}

/** `data` with the planned fields out and their entries, each under `keys[i]`, in `$sealed`; throws as sealSubjectWith. */
export const sealedCopy = (
  data: Record<string, unknown>,
  storedStreamId: string,
  planned: ReadonlyArray<PlannedSubject>,
  keys: ReadonlyArray<CachedKey>,
): Record<string, unknown> => {
  const entries = planned.map((subject, i) => sealSubjectWith(keys[i] as CachedKey, storedStreamId, subject))
  // Top-level fields are left out of one fresh copy; nested ones go through copies of their objects and lists.
  const topLevel = new Set<string>()
  const nested: Array<Steps> = []
  for (const { fields } of planned)
    for (const field of fields)
      if (field.length === 1) topLevel.add(field[0] as string)
      else nested.push(field)
  let kept = copyWithout(data, topLevel)
  for (const field of nested) kept = withValueAt(kept, field, undefined) as Record<string, unknown>
  kept[sealedField] = entries
  return kept
}

/** One entry's fields, opened with `key` (`[forgotten]` each, when it is destroyed); throws when the box does not open. */
export const openWith = (
  key: CipherKey | undefined,
  storedStreamId: string,
  eventId: string,
  entry: SealedEntry,
): Record<string, unknown> => {
  if (key === undefined) return Object.fromEntries(entry.fields.map((f) => [f, forgotten]))
  const clear = openBytes(key, entry.box, sealedBoxAssociatedData(storedStreamId, entry))
  if (clear === undefined)
    throw new StoreError({
      reason: "Corrupt",
      detail: `event ${eventId} in ${storedStreamId}: the sealed fields ${entry.fields.join(", ")} do not open (altered, or moved from another stream)`,
    })
  return JSON.parse(clear.toString("utf8")) as Record<string, unknown>
}

/** `data` without `$sealed`, the opened fields back at their paths (read into steps by `stepsOfStored`). */
export const mergedOpened = (
  data: Record<string, unknown>,
  opened: ReadonlyArray<Record<string, unknown>>,
  stepsOfStored: (path: string) => Steps,
): Record<string, unknown> => {
  const { [sealedField]: _sealed, ...rest } = data
  // `rest` is a fresh object: top-level fields go into it directly, nested ones through copies of their objects and lists.
  let clear: Record<string, unknown> = rest
  for (const fields of opened)
    for (const [path, value] of Object.entries(fields)) {
      const steps = stepsOfStored(path)
      if (steps.length > 1) clear = withValueAt(clear, steps, value) as Record<string, unknown>
      else clear[path] = value
    }
  return clear
}
