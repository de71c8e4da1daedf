/**
 * The envelope every operation shares (payment-service-interface.md,
 * "Envelope"; wire-conventions.md, "Transport"): a request body
 * `{ requestTime, bizContent? }`, a response body `{ head, body? }` where
 * `body` appears only when applyStatus is SUCCESS and code is "0", and the
 * headers `Partner-Id` and `sign`, read in any letter case.
 */
import { BoundedString, type CodeName, codeCatalogue, RequiredString, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"

// Headers.

export const headerNames = {
  partnerId: "Partner-Id",
  sign: "sign",
  contentType: "Content-Type",
  apiVersion: "api-version",
  contentLanguage: "Content-Language",
} as const

/** What clients send in `api-version` (wire-conventions.md). */
export const apiVersion = "v1"
export const jsonContentType = "application/json"

/** "Partner-Id String(12): merchant id of the account." */
export const partnerIdMaxChars = 12
export const PartnerId = RequiredString(partnerIdMaxChars)

/** Headers as `fetch` (a `Headers`) or Node's `http` (a record, values possibly repeated) hold them. */
export type HeadersLike =
  | { readonly get: (name: string) => string | null }
  | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** A header by name in any letter case (`partner-id`, `Partner-Id`); the first value when repeated. */
export const readHeader = (headers: HeadersLike, name: string): string | undefined => {
  if (typeof headers.get === "function") return (headers.get as (name: string) => string | null)(name) ?? undefined
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers as Readonly<Record<string, unknown>>)) {
    if (key.toLowerCase() !== wanted) continue
    if (typeof value === "string") return value
    if (Array.isArray(value) && typeof value[0] === "string") return value[0]
  }
  return undefined
}

// Request.

/**
 * The request body. `bizContent` is left undecoded here: each operation
 * decodes it with its own schema (`decodeBizContent`), so that a bad
 * bizContent answers with that operation's field names.
 */
export const RequestEnvelope = Schema.Struct({
  requestTime: Timestamp,
  bizContent: Schema.optionalKey(Schema.Unknown),
})
export type RequestEnvelope = typeof RequestEnvelope.Type

// Response.

export const ApplyStatus = Schema.Literals(["SUCCESS", "FAIL", "ERROR"])
export type ApplyStatus = typeof ApplyStatus.Type

/** head.msg is String(200). */
export const headMsgMaxChars = 200

export const ResponseHead = Schema.Struct({
  applyStatus: ApplyStatus,
  code: BoundedString(10),
  msg: Schema.optionalKey(BoundedString(headMsgMaxChars)),
  traceCode: Schema.optionalKey(Schema.String),
  // "Appears in the create-order response sample."
  success: Schema.optionalKey(Schema.Boolean),
})
export type ResponseHead = typeof ResponseHead.Type

/** A response body as it travels; `body` is the operation's wire form. */
export interface ResponseEnvelope {
  readonly head: ResponseHead
  readonly body?: unknown
}

/** "body is returned only when applyStatus is SUCCESS and code is 0." */
export const isSuccessHead = (head: Pick<ResponseHead, "applyStatus" | "code">): boolean =>
  head.applyStatus === "SUCCESS" && head.code === codeCatalogue.SUCCESS.code

/** The response shape, with the spec's rule that only a successful head carries a body. */
export const ResponseEnvelopeWire = Schema.Struct({
  head: ResponseHead,
  body: Schema.optionalKey(Schema.Unknown),
}).check(
  Schema.makeFilter((response) =>
    response.body === undefined || isSuccessHead(response.head)
      ? undefined
      : { path: ["body"], issue: 'must be absent unless head.applyStatus is SUCCESS and head.code is "0"' },
  ),
)

const boundedMsg = (msg: string): string =>
  msg.length <= headMsgMaxChars ? msg : `${msg.slice(0, headMsgMaxChars - 1)}…`

/** A successful response around an already encoded body (see `encodeResponseBody`). */
export const successResponse = (body: unknown): ResponseEnvelope => ({
  head: { applyStatus: "SUCCESS", code: codeCatalogue.SUCCESS.code, msg: codeCatalogue.SUCCESS.message },
  body,
})

/**
 * A business or protocol refusal: applyStatus FAIL, the spec's code, and a
 * message (the catalogue's name of the code unless a more specific sentence
 * is given), cut to head.msg's 200 characters. No body, by the spec's rule.
 */
export const failureResponse = (
  code: Exclude<CodeName, "SUCCESS">,
  msg?: string,
  traceCode?: string,
): ResponseEnvelope => {
  const entry = codeCatalogue[code]
  const head: ResponseHead = { applyStatus: "FAIL", code: entry.code, msg: boundedMsg(msg ?? entry.message) }
  return { head: traceCode === undefined ? head : { ...head, traceCode } }
}

/**
 * A request whose signature is missing or does not verify: applyStatus ERROR
 * (Authentication 3). The spec gives no code for it; 403 UNAUTHORIZED is the
 * catalogue's nearest ("API not authorised"), and applyStatus ERROR tells it
 * apart from a missing grant, which answers FAIL.
 */
export const signatureErrorResponse = (
  msg = "request signature verification failed: the private key used to sign and the public key on file are not a pair",
): ResponseEnvelope => ({
  head: { applyStatus: "ERROR", code: codeCatalogue.UNAUTHORIZED.code, msg: boundedMsg(msg) },
})
