/**
 * An optional value that may be absent is dropped, not written as `undefined`:
 * under `exactOptionalPropertyTypes` an optional key holds no `undefined`, and
 * the wire's optional keys are absent. One typed helper for every layer, in
 * place of `x === undefined ? {} : { x }` written out at each use.
 */

/** `T` with every key whose value may be undefined made optional instead, as `exactOptionalPropertyTypes` reads it. */
export type WithoutUndefined<T> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K]
} & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>
}

/** Keeps the keys whose value is defined, typed as what is left: each key that may be undefined is optional. */
export const withoutUndefined = <T extends object>(value: T): WithoutUndefined<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as WithoutUndefined<T>
