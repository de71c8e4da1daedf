/**
 * One line per API and sandbox request, and the request metrics, written in
 * one place: what an operator needs to find a merchant's request ("traceCode
 * 3f9c... from M100001 answered 62001") and to see the service's health by
 * operation and code. Never a body, a key or a personal field: the line says
 * who called what and what came of it, nothing of what was sent.
 */
import { partnerIdMaxChars } from "@mizan/protocol"
import { type Context, Effect, Metric } from "effect"

export interface AccessRecord {
  readonly method: string
  readonly path: string
  /** The Partner-Id header as sent (when it is one at all); a claim, checked by the signature. */
  readonly partnerId: string | undefined
  /** The operation served; undefined when the path names none. */
  readonly operation: string | undefined
  readonly traceCode: string | undefined
  /** The answer's `head.code`. */
  readonly code: string | undefined
  readonly status: number
  readonly durationMs: number
}

export const apiRequests = Metric.counter("mizan_api_requests_total", {
  description: "API and sandbox requests answered, by operation and head code",
  incremental: true,
})

/** Seconds from the request's arrival to its signed answer. */
export const apiRequestDuration = Metric.histogram("mizan_api_request_duration_seconds", {
  description: "Time to answer an API or sandbox request, by operation",
  boundaries: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
})

/**
 * Each series (a metric with its attributes) made once and kept, by
 * operation and then code (no key string put together per request): made
 * anew per request, Effect keys it anew on every update. Operations and
 * codes are a closed set, so the table stays small.
 */
const seriesBy = <M>(make: (operation: string, code: string) => M) => {
  const made = new Map<string, Map<string, M>>()
  return (operation: string, code = ""): M => {
    let ofOperation = made.get(operation)
    if (ofOperation === undefined) {
      ofOperation = new Map()
      made.set(operation, ofOperation)
    }
    let series = ofOperation.get(code)
    if (series === undefined) {
      series = make(operation, code)
      ofOperation.set(code, series)
    }
    return series
  }
}
const requestsOf = seriesBy((operation, code) => Metric.withAttributes(apiRequests, { operation, code }))
const durationsOf = seriesBy((operation) => Metric.withAttributes(apiRequestDuration, { operation }))

/** A header's value fit for a log line: a Partner-Id, or nothing when it cannot be one. */
export const claimedPartnerId = (header: string | undefined): string | undefined => {
  const partnerId = header?.trim()
  if (partnerId === undefined || partnerId === "" || partnerId.length > partnerIdMaxChars) return undefined
  return /^[\x21-\x7e]+$/.test(partnerId) ? partnerId : undefined
}

/** Writes the access-log line and counts the request (both metrics in one step). */
export const recordAccess = (record: AccessRecord) => {
  const operation = record.operation ?? "unknown"
  return Effect.andThen(
    Effect.logInfo(`${record.method} ${record.path}`).pipe(
      Effect.annotateLogs({
        traceCode: record.traceCode,
        partnerId: record.partnerId,
        path: record.path,
        code: record.code,
        status: record.status,
        durationMs: Math.round(record.durationMs * 100) / 100,
      }),
    ),
    Effect.contextWith((context: Context.Context<never>) => {
      requestsOf(operation, record.code ?? "none").updateUnsafe(1, context)
      durationsOf(operation).updateUnsafe(record.durationMs / 1000, context)
      return Effect.void
    }),
  )
}
