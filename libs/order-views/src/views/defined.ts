/** The wire's optional keys are absent, never `undefined`: mappers drop the keys they have no value for. */

/** `T` with its optional keys also taking `undefined`: what a mapper writes before the keys are dropped. */
export type WithUndefinedOptionals<T> = { [K in keyof T]: {} extends Pick<T, K> ? T[K] | undefined : T[K] }

/** Keeps the keys whose value is defined, typed by the wire shape `T` the result must have. */
export const definedOnly = <T extends object>(value: WithUndefinedOptionals<T>): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
