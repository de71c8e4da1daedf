/**
 * Field paths of a sealing plan: a top-level name (`cardNumber`), or names
 * joined by dots into nested objects (`order.cardNumber`, a notification's
 * copy of an order). Writing copies each object on the way, so the data a
 * store handed out (the memory store keeps its own) is never changed.
 */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const valueAt = (data: Record<string, unknown>, path: string): unknown => {
  let at: unknown = data
  for (const name of path.split(".")) {
    if (!isObject(at)) return undefined
    at = at[name]
  }
  return at
}

/** `data` with `path` set to `value`, or removed when `value` is undefined; a missing parent is made only to set. */
export const withValueAt = (data: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> => {
  const [name, ...rest] = path.split(".")
  if (name === undefined) return data
  const copy = { ...data }
  if (rest.length === 0) {
    if (value === undefined) delete copy[name]
    else copy[name] = value
    return copy
  }
  const inner = copy[name]
  if (!isObject(inner) && value === undefined) return data
  copy[name] = withValueAt(isObject(inner) ? inner : {}, rest.join("."), value)
  return copy
}
