import { Equal } from "effect"

/**
 * Whether a repeated request carries the same parameters as the order
 * already recorded: every field of the request schema compares equal
 * (absent on both sides counts as equal). Fields the edge adds (the
 * service's orderNo, requestTime, looked-up values) are not parameters, so
 * a retry with a fresh orderNo is still the same request.
 */
export const sameRequest = (fields: Readonly<Record<string, unknown>>, request: object, recorded: object): boolean =>
  Object.keys(fields).every((key) =>
    Equal.equals((request as Record<string, unknown>)[key], (recorded as Record<string, unknown>)[key]),
  )
