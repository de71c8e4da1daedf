/**
 * Field paths of a sealing plan: a top-level name (`cardNumber`), names
 * joined by dots into nested objects (`order.cardNumber`, a notification's
 * copy of an order), and `[]` after a list's name for a field of each of
 * its items (`request.sharingParamList[].sharingIdentity`). The sealer
 * turns a plan's `[]` into the items' positions (`sharingParamList[0]`),
 * and a stored entry names its fields by these concrete paths. Writing
 * copies each object and list on the way, so the data a store handed out
 * (the memory store keeps its own) is never changed.
 */

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A step of a path: a field's name, an item's position, or (in a plan's path) every item. */
type Step = string | number | "[]"

const everyItem = "[]"

const stepsOf = (path: string): ReadonlyArray<Step> =>
  path.split(".").flatMap((part) => {
    const bracket = part.indexOf("[")
    if (bracket < 0) return [part]
    const items = part
      .slice(bracket)
      .split("]")
      .slice(0, -1)
      .map((index): Step => (index === "[" ? everyItem : Number(index.slice(1))))
    return [part.slice(0, bracket), ...items]
  })

/** Whether `path` goes below the top level of the data (into an object or a list's item). */
export const isNestedPath = (path: string): boolean => path.includes(".") || path.includes("[")

export const valueAt = (data: Record<string, unknown>, path: string): unknown => {
  let at: unknown = data
  for (const step of stepsOf(path)) {
    if (typeof step === "number") {
      if (!Array.isArray(at)) return undefined
      at = at[step]
    } else {
      if (!isObject(at) || step === everyItem) return undefined
      at = at[step]
    }
  }
  return at
}

/**
 * The concrete paths of a plan's `path` in `data`: its `[]` replaced by the
 * position of each item the list holds (none when the list is absent).
 */
export const itemPathsOf = (data: Record<string, unknown>, path: string): ReadonlyArray<string> => {
  const marker = path.indexOf(everyItem)
  if (marker < 0) return [path]
  const list = valueAt(data, path.slice(0, marker))
  if (!Array.isArray(list)) return []
  return list.flatMap((_item, index) =>
    itemPathsOf(data, `${path.slice(0, marker)}[${index}]${path.slice(marker + everyItem.length)}`),
  )
}

/** The list part of a plan's path, up to and including its first `[]` (`request.sharingParamList[]`). */
export const firstListOf = (path: string): string | undefined => {
  const marker = path.indexOf(everyItem)
  return marker < 0 ? undefined : path.slice(0, marker + everyItem.length)
}

const copyAt = (value: unknown, step: string | number, rest: ReadonlyArray<Step>, set: unknown): unknown => {
  if (typeof step === "number") {
    if (!Array.isArray(value)) return value
    const copy = [...value]
    copy[step] = rest.length === 0 ? set : withStepsAt(copy[step], rest, set)
    return copy
  }
  const object = isObject(value) ? value : {}
  const copy = { ...object }
  if (rest.length === 0) {
    if (set === undefined) delete copy[step]
    else copy[step] = set
  } else copy[step] = withStepsAt(copy[step], rest, set)
  return copy
}

const withStepsAt = (value: unknown, steps: ReadonlyArray<Step>, set: unknown): unknown => {
  const [step, ...rest] = steps
  if (step === undefined) return value
  if (step === everyItem) throw new Error("sealing: a plan's path ([]) cannot be written, only its items' paths")
  // Removing below something that is not there leaves the data as it is; setting makes a missing object.
  if (set === undefined && !(typeof step === "number" ? Array.isArray(value) : isObject(value))) return value
  return copyAt(value, step, rest, set)
}

/** `data` with `path` set to `value`, or removed when `value` is undefined; a missing parent object is made only to set. */
export const withValueAt = (data: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> =>
  withStepsAt(data, stepsOf(path), value) as Record<string, unknown>
