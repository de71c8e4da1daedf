import { BoundedString } from "@mizan/kernel"
import { Schema } from "effect"

/**
 * What one attempt came to. The merchant acknowledged (`Delivered`), or the
 * attempt failed for one of the reasons the spec counts as failure (a reply
 * that does not conform, or a timeout).
 */
export const DeliveredOutcome = Schema.TaggedStruct("Delivered", { statusCode: Schema.Int })

/** How much of a merchant's answer that was not the acknowledgement is kept, in characters. */
export const answerStartMaxChars = 64

/**
 * The first characters of an answer that was not the acknowledgement, so
 * that an operator can tell the merchant what its endpoint said ("502 Bad
 * Gateway", an HTML login page). Only the start of text we do not control:
 * control characters are written as spaces, and nothing more is kept.
 */
const AnswerStart = Schema.optionalKey(BoundedString(answerStartMaxChars))

/** The merchant answered with a status outside 2xx. */
export const HttpStatus = Schema.TaggedStruct("HttpStatus", { statusCode: Schema.Int, answerStart: AnswerStart })

/** The merchant answered 2xx, but not with the acknowledgement. */
export const BadAnswer = Schema.TaggedStruct("BadAnswer", { statusCode: Schema.Int, answerStart: AnswerStart })

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

/** What an attempt came to, in a phrase an operator reads in a log line or `notifier show`. */
export const describeOutcome = (outcome: AttemptOutcome): string => {
  const answered = (what: string, answerStart: string | undefined) =>
    answerStart === undefined ? what : `${what}: ${JSON.stringify(answerStart)}`
  switch (outcome._tag) {
    case "Delivered":
      return `delivered (HTTP ${outcome.statusCode})`
    case "HttpStatus":
      return answered(`HTTP ${outcome.statusCode}`, outcome.answerStart)
    case "BadAnswer":
      return answered(`HTTP ${outcome.statusCode} without the acknowledgement`, outcome.answerStart)
    case "Timeout":
      return `no answer within ${outcome.afterMs} ms`
    case "ConnectionFailed":
      return `connection failed (${outcome.code})`
  }
}
