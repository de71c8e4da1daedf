/**
 * A real request and answer per operation, for the description's
 * examples. They are recorded, not written: `test/openapiExamples.spec.ts`
 * runs every operation against a sandbox gateway and checks that
 * `examples.json` is what that run sends and receives (times and numbers
 * the service assigns aside); `npm run openapi-fixtures` writes the file
 * anew from such a run. So an example cannot drift from the service.
 */
import recording from "./examples.json" with { type: "json" }

export interface RecordedExample {
  /** The request body as sent: `{ requestTime, bizContent }`. */
  readonly request: unknown
  /** The answer as received: `{ head, body }`. */
  readonly answer: unknown
}

/** Recorded examples by full path (`/sgs/api/acquire2/placeOrder`). */
export type RecordedExamples = Readonly<Record<string, RecordedExample>>

export const recordedExamples: RecordedExamples = (recording as { readonly examples?: RecordedExamples }).examples ?? {}
