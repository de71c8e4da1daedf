/**
 * Field paths of a sealing plan: a top-level name (`cardNumber`), names
 * joined by dots into nested objects (`order.cardNumber`, a notification's
 * copy of an order), and `[]` after a list's name for a field of each of
 * its items (`request.sharingParamList[].sharingIdentity`). A path is read
 * once into its steps (`stepsOf`): the sealer compiles its plan's paths
 * when it is made, and turns a plan's `[]` into the items' positions
 * (`sharingParamList[0]`); a stored entry names its fields by these
 * concrete paths (`pathOf`). Writing copies each object and list on the
 * way, so the data a store handed out (the memory store keeps its own) is
 * never changed.
 */

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const everyItem = "[]"

/** A step of a path: a field's name, an item's position, or (in a plan's path) every item. */
export type Step = string | number
export type Steps = ReadonlyArray<Step>

/** The steps of `path`; a plan's `[]` is the step `"[]"`, every item. */
export const stepsOf = (path: string): Steps =>
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

/** The path `steps` name, as `stepsOf` reads it back: `request.sharingParamList[0].sharingIdentity`. */
export const pathOf = (steps: Steps): string =>
  steps
    .map((step, i) =>
      typeof step === "number" ? `[${step}]` : step === everyItem ? everyItem : i === 0 ? step : `.${step}`,
    )
    .join("")

/** How many steps lead to a plan path's first list and include its `[]`; undefined when it names no list. */
export const listDepthOf = (steps: Steps): number | undefined => {
  const marker = steps.indexOf(everyItem)
  return marker < 0 ? undefined : marker + 1
}

/** Whether `steps` start with `prefix`. */
export const startsWith = (steps: Steps, prefix: Steps): boolean => prefix.every((step, i) => steps[i] === step)

export const valueAt = (data: Record<string, unknown>, steps: Steps): unknown => {
  let at: unknown = data
  for (const step of steps) {
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
 * The concrete paths of a plan path's `steps` in `data`: each `[]` replaced
 * by the position of each item the list holds (none when the list is absent).
 */
export const itemStepsOf = (data: Record<string, unknown>, steps: Steps): ReadonlyArray<Steps> => {
  const depth = listDepthOf(steps)
  if (depth === undefined) return [steps]
  const list = valueAt(data, steps.slice(0, depth - 1))
  if (!Array.isArray(list)) return []
  return list.flatMap((_item, index) => itemStepsOf(data, [...steps.slice(0, depth - 1), index, ...steps.slice(depth)]))
}

/**
 * A copy of `object` without the members `left`: built member by member,
 * never by `delete`, which turns an object into a slow dictionary that
 * every later step (encoding, the chain's canonical JSON) walks slowly.
 */
export const copyWithout = (object: Record<string, unknown>, left: ReadonlySet<string>): Record<string, unknown> => {
  const copy: Record<string, unknown> = {}
  for (const key in object) if (Object.hasOwn(object, key) && !left.has(key)) copy[key] = object[key]
  return copy
}

const copyAt = (value: unknown, step: Step, rest: Steps, set: unknown): unknown => {
  if (typeof step === "number") {
    if (!Array.isArray(value)) return value
    const copy = [...value]
    copy[step] = rest.length === 0 ? set : withValueAt(copy[step], rest, set)
    return copy
  }
  const object = isObject(value) ? value : {}
  if (rest.length === 0 && set === undefined) return copyWithout(object, new Set([step]))
  const copy = { ...object }
  copy[step] = rest.length === 0 ? set : withValueAt(copy[step], rest, set)
  return copy
}

/** `value` with `steps` set to `set`, or removed when `set` is undefined; a missing parent object is made only to set. */
export const withValueAt = (value: unknown, steps: Steps, set: unknown): unknown => {
  const [step, ...rest] = steps
  if (step === undefined) return value
  if (step === everyItem) throw new Error("sealing: a plan's path ([]) cannot be written, only its items' paths")
  // Removing below something that is not there leaves the data as it is; setting makes a missing object.
  if (set === undefined && !(typeof step === "number" ? Array.isArray(value) : isObject(value))) return value
  return copyAt(value, step, rest, set)
}
