/** An event's sealed fields as stored: one entry per data subject under the data field `$sealed`. */
import { isObject } from "./paths.ts"

/** The data field that holds an event's sealed subjects. */
export const sealedField = "$sealed"

/** Whether stored data holds sealed fields (a store written before sealing holds none). */
export const isSealed = (data: unknown): boolean => isObject(data) && sealedField in data

export interface SealedEntry {
  readonly subject: string
  readonly key: string
  readonly fields: ReadonlyArray<string>
  readonly box: string
}
