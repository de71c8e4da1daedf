import { BoundedString } from "@mizan/kernel"
import { Schema } from "effect"

/**
 * What one attempt came to. The merchant acknowledged (`Delivered`), or the
 * attempt failed for one of the reasons the spec counts as failure ("Merchant
 * reply and retries", item 2: a reply that does not conform, or a timeout).
 * The merchant's answer itself is never recorded: it is text we do not control.
 */
export const DeliveredOutcome = Schema.TaggedStruct("Delivered", { statusCode: Schema.Int })

/** The merchant answered with a status outside 2xx. */
export const HttpStatus = Schema.TaggedStruct("HttpStatus", { statusCode: Schema.Int })

/** The merchant answered 2xx, but not with the acknowledgement. */
export const BadAnswer = Schema.TaggedStruct("BadAnswer", { statusCode: Schema.Int })

/** No complete answer within the delivery timeout. */
export const Timeout = Schema.TaggedStruct("Timeout", { afterMs: Schema.Int })

/** The connection was refused, broke, or could not be made (DNS, TLS): `code` is the system's error code. */
export const ConnectionFailed = Schema.TaggedStruct("ConnectionFailed", { code: BoundedString(64) })

export const AttemptFailure = Schema.Union([HttpStatus, BadAnswer, Timeout, ConnectionFailed])
export type AttemptFailure = typeof AttemptFailure.Type

export const AttemptOutcome = Schema.Union([DeliveredOutcome, HttpStatus, BadAnswer, Timeout, ConnectionFailed])
export type AttemptOutcome = typeof AttemptOutcome.Type

/** Why a notification stopped being delivered without an acknowledgement. */
export const AttemptsExhausted = Schema.TaggedStruct("AttemptsExhausted", {})

/** The notifyUrl breaks the rules (scheme, length, or an address the service must not call): it is never fetched. */
export const UrlRefused = Schema.TaggedStruct("UrlRefused", { detail: BoundedString(200) })

export const GiveUpReason = Schema.Union([AttemptsExhausted, UrlRefused])
export type GiveUpReason = typeof GiveUpReason.Type

/** Outcomes and reasons are flat records: equal when their fields are. */
export const sameRecord = (a: object, b: object): boolean => {
  const aKeys = Object.keys(a)
  if (aKeys.length !== Object.keys(b).length) return false
  return aKeys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key])
}
