import { StoreError, type StoreErrorReason } from "@mizan/eventsourcing"

/** What node-postgres attaches to a failure: a SQLSTATE from the server, or a socket error code from Node. */
interface PgFailure {
  readonly code?: unknown
  readonly constraint?: unknown
  readonly message?: unknown
}

const asFailure = (cause: unknown): PgFailure => (typeof cause === "object" && cause !== null ? cause : {})

/** The unique constraint that guards stream versions (migration 1). */
export const streamVersionConstraint = "events_stream_version_key"

/** A unique violation of (stream_id, stream_version): another writer took those versions first. */
export const isStreamVersionTaken = (cause: unknown): boolean => {
  const failure = asFailure(cause)
  return failure.code === "23505" && failure.constraint === streamVersionConstraint
}

/**
 * Why a query failed, in the port's words. A data exception (SQLSTATE class
 * 22) or a program limit (54, such as a stream id too long for its index)
 * is the request's fault; anything else (a connection exception 08, a
 * shutdown 57, exhausted resources 53, a refused login 28, a missing
 * privilege 42501, a socket error from Node) means the store cannot do it
 * now.
 */
export const reasonOf = (cause: unknown): StoreErrorReason => {
  const code = asFailure(cause).code
  return typeof code === "string" && (code.startsWith("22") || code.startsWith("54")) ? "InvalidRequest" : "Unavailable"
}

/**
 * A StoreError for a failed query. It names the action, the SQLSTATE and the
 * server's message, and keeps nothing else of the driver's error: its
 * `detail` and `where` fields quote the parameters, which may carry event
 * data, and an error is logged whole.
 */
export const storeErrorFrom =
  (action: string) =>
  (cause: unknown): StoreError => {
    if (cause instanceof StoreError) return cause
    const failure = asFailure(cause)
    const code = typeof failure.code === "string" ? failure.code : undefined
    const message = typeof failure.message === "string" ? failure.message : String(cause)
    return new StoreError({
      reason: reasonOf(cause),
      detail: `${action}${code === undefined ? "" : ` [${code}]`}: ${message}`,
      cause: { code, message },
    })
  }
