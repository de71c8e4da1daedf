/** The ways a call can fail, as typed errors a merchant can match on `_tag`. */
import { type CodeName, codeCatalogue, codeNames } from "@mizan/kernel"
import { ApplyStatus, messageNameOf } from "@mizan/protocol"
import { Schema } from "effect"

/**
 * The service answered, signed, with an error in `head`: a business refusal
 * (62006 REFUND_AMOUNT_EXCEEDED), a protocol refusal (400 INVALID_PARAMETER),
 * or applyStatus ERROR when the service could not verify the request's
 * signature. Retrying the same request gets the same answer, except for
 * 402, 500 and 504.
 */
export class ServiceRefused extends Schema.TaggedError<ServiceRefused>()("ServiceRefused", {
  applyStatus: ApplyStatus,
  code: Schema.String,
  msg: Schema.UndefinedOr(Schema.String),
  traceCode: Schema.UndefinedOr(Schema.String),
  httpStatus: Schema.Number,
}) {
  /**
   * The message name `head.msg` starts with (`INVALID_PARAMETER`,
   * `REQUESTTIME_TOO_EARLY`, `REFUND_AMOUNT_EXCEEDED`, ...): what tells apart
   * the meanings one code number has.
   */
  get messageName(): CodeName | undefined {
    return messageNameOf(this.msg)
  }
  /** The catalogue name of the code: the message name when it belongs to the code, else the code's only name. */
  get codeName(): CodeName | undefined {
    const candidates = codeNames.filter((name) => codeCatalogue[name].code === this.code)
    const named = this.messageName
    if (named !== undefined && candidates.includes(named)) return named
    return candidates.length === 1 ? candidates[0] : undefined
  }
  override get message(): string {
    return `${this.applyStatus} ${this.code}${this.msg === undefined ? "" : `: ${this.msg}`}`
  }
}

/** No usable answer came back: network failure, timeout, an oversized body, or an unsigned non-2xx status. */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", {
  reason: Schema.String,
  httpStatus: Schema.UndefinedOr(Schema.Number),
}) {
  override get message(): string {
    return this.httpStatus === undefined ? this.reason : `${this.reason} (HTTP ${this.httpStatus})`
  }
}

/**
 * The response was not signed by the service's key: no `sign` header, or one
 * that does not verify over the bytes received. Its content must not be
 * trusted, so it is not parsed at all.
 */
export class ResponseSignatureError extends Schema.TaggedError<ResponseSignatureError>()("ResponseSignatureError", {
  reason: Schema.Literals(["missing", "invalid"]),
  httpStatus: Schema.Number,
}) {
  override get message(): string {
    return this.reason === "missing"
      ? "the response carries no sign header"
      : "the response's sign header does not verify with the service's public key"
  }
}

/** A signed response that is not the protocol's envelope or not the operation's body; `detail` names the field. */
export class MalformedResponse extends Schema.TaggedError<MalformedResponse>()("MalformedResponse", {
  detail: Schema.String,
}) {
  override get message(): string {
    return `malformed response: ${this.detail}`
  }
}

export type MerchantCallError = ServiceRefused | TransportError | ResponseSignatureError | MalformedResponse
