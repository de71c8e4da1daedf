/**
 * A configuration key or an option renamed (for the house's unit-last names:
 * `readyNotifierLagSecondsMax` became `readyNotifierMaxLagSeconds`) is still
 * read under its old name for a while, with a warning, so that a file or a
 * caller written before the rename keeps working and learns the new name.
 */

/** Each old name, with the name it was renamed to. */
export type Renames = Readonly<Record<string, string>>

export interface RenamedKeys<T> {
  /** The value with every old key under its new name (an old key given beside its new one is dropped). */
  readonly value: T
  /** One sentence per old name met, naming the new one. */
  readonly warnings: ReadonlyArray<string>
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `value` with its old keys renamed by `renames`, and a warning for each; anything but a plain object is left alone. */
export const acceptRenamedKeys = <T>(value: T, renames: Renames): RenamedKeys<T> => {
  if (!isRecord(value)) return { value, warnings: [] }
  const renamed: Record<string, unknown> = { ...value }
  const warnings: Array<string> = []
  for (const [oldName, newName] of Object.entries(renames)) {
    if (!Object.hasOwn(value, oldName)) continue
    delete renamed[oldName]
    if (Object.hasOwn(value, newName)) {
      warnings.push(`${oldName} is now ${newName}, which is also given: ${oldName} is ignored; remove it`)
      continue
    }
    renamed[newName] = value[oldName]
    warnings.push(`${oldName} is now ${newName}: the old name is still read, for now; write the new one`)
  }
  return { value: renamed as T, warnings }
}
