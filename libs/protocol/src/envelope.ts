/**
 * The envelope every operation shares (docs/api.md#transport): a request body
 * `{ requestTime, bizContent? }`, a response body `{ head, body? }` where
 * `body` appears only when applyStatus is SUCCESS and code is "0", and the
 * headers `Partner-Id` and `sign`, read in any letter case.
 */
import { BoundedString, type CodeName, codeCatalogue, RequiredString, Timestamp } from "@mizan/kernel"
import { Schema, SchemaTransformation } from "effect"

// Headers.

export const headerNames = {
  partnerId: "Partner-Id",
  sign: "sign",
  contentType: "Content-Type",
  apiVersion: "api-version",
  contentLanguage: "Content-Language",
} as const

/** What the official clients send in `api-version`; the gateway does not read it. */
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
 * An RFC 3339 date-time with an explicit offset, as the official PHP SDK
 * writes `requestTime` (`2026-11-24T00:54:42.000+04:00`; `Z` is an offset
 * too). A time without an offset names no instant, so it has no place here.
 */
const dateTimeWithOffset =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(?:Z|([+-])(\d{2}):(\d{2}))$/

/** The instant an RFC 3339 date-time with an offset names, in milliseconds; undefined for any other text or an impossible date. */
export const instantOfDateTime = (text: string): number | undefined => {
  const match = dateTimeWithOffset.exec(text)
  if (match === null) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const millis = Number((match[7] ?? "").padEnd(3, "0"))
  const offsetSign = match[8] === "-" ? -1 : 1
  const offsetHours = Number(match[9] ?? 0)
  const offsetMinutes = Number(match[10] ?? 0)
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis)
  // Date.UTC rolls 2026-02-30 over into March: a date that does not read back is not a date.
  const readBack = new Date(local)
  if (readBack.getUTCFullYear() !== year || readBack.getUTCMonth() !== month - 1 || readBack.getUTCDate() !== day)
    return undefined
  return local - offsetSign * (offsetHours * 60 + offsetMinutes) * 60_000
}

const requestTimeMs = (input: number | string): number | undefined =>
  typeof input === "number" ? input : instantOfDateTime(input)

/**
 * `requestTime`: milliseconds since the epoch as a JSON number (the Java SDK),
 * or an RFC 3339 date-time with its UTC offset (the PHP SDK). Either decodes
 * to the instant in milliseconds, which is what the service records.
 */
const requestTimeRule =
  "must be milliseconds since 1970-01-01 as a JSON number, or a date-time with its UTC offset such as 2026-11-24T00:54:42.000+04:00"

export const RequestTime = Schema.Union([Schema.Number, Schema.String])
  .annotate({ message: requestTimeRule })
  .check(Schema.makeFilter((input) => requestTimeMs(input) !== undefined, { message: requestTimeRule }))
  .pipe(
    Schema.decodeTo(
      Timestamp,
      SchemaTransformation.transform<number, number | string>({
        decode: (input) => requestTimeMs(input) as number,
        encode: (ms) => ms,
      }),
    ),
  )

/**
 * The request body. `bizContent` is left undecoded here: each operation
 * decodes it with its own schema (`decodeBizContent`), so that a bad
 * bizContent answers with that operation's field names. The PHP SDK also
 * repeats the caller's `partnerId` here; the pipeline holds it to the
 * `Partner-Id` header, so the body can never name another merchant.
 */
export const RequestEnvelope = Schema.Struct({
  requestTime: RequestTime,
  partnerId: Schema.optionalKey(Schema.String),
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
  // "Appears in the create-order response sample." Answered where PayBy's documentation shows it
  // (the operations whose `headSuccess` is true): true exactly when `isSuccessHead`.
  success: Schema.optionalKey(Schema.Boolean),
})
export type ResponseHead = typeof ResponseHead.Type

/** The head of an operation whose answers carry `success` (create order): always there. */
export type ResponseHeadWithSuccess = ResponseHead & { readonly success: boolean }

/** A response body as it travels; `body` is the operation's wire form. */
export interface ResponseEnvelope {
  readonly head: ResponseHead
  readonly body?: unknown
}

/** "body is returned only when applyStatus is SUCCESS and code is 0." */
export const isSuccessHead = (head: Pick<ResponseHead, "applyStatus" | "code">): boolean =>
  head.applyStatus === "SUCCESS" && head.code === codeCatalogue.SUCCESS.code

/**
 * The envelope with `head.success` as PayBy's documentation shows it on a
 * create order's answer: true on SUCCESS with code "0", false on every
 * refusal, so that a merchant's code that tests it reads what happened.
 */
export const withHeadSuccess = (envelope: ResponseEnvelope): ResponseEnvelope => ({
  ...envelope,
  head: { ...envelope.head, success: isSuccessHead(envelope.head) },
})

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

/**
 * `head.msg` of a refusal: the message name of the spec's code table, then
 * `: ` and the detail that names the field
 * (`INVALID_PARAMETER: bizContent.subject must be at most 12 characters`).
 * One number can mean several things (400 is INVALID_PARAMETER,
 * REQUESTTIME_TOO_EARLY and REQUESTTIME_TOO_LATER), and merchants' code tells
 * them apart by this name, so a long detail is cut, never the name.
 */
export const headMessage = (name: Exclude<CodeName, "SUCCESS">, detail?: string): string => {
  if (detail === undefined || detail === "") return name
  const text = `${name}: ${detail}`
  return text.length <= headMsgMaxChars ? text : `${text.slice(0, headMsgMaxChars - 1)}…`
}

/** The message name a refusal's `head.msg` starts with, if it starts with one of the catalogue's. */
export const messageNameOf = (msg: string | undefined): CodeName | undefined => {
  if (msg === undefined) return undefined
  const name = msg.split(":", 1)[0] as CodeName
  return Object.hasOwn(codeCatalogue, name) ? name : undefined
}

/** A successful response around an already encoded body (see `encodeResponseBody`). */
export const successResponse = (body: unknown): ResponseEnvelope => ({
  head: { applyStatus: "SUCCESS", code: codeCatalogue.SUCCESS.code, msg: codeCatalogue.SUCCESS.message },
  body,
})

/**
 * A business or protocol refusal: applyStatus FAIL, the spec's code, and
 * `head.msg` as `headMessage` writes it from the code's message name and the
 * detail. No body, by the spec's rule.
 */
export const failureResponse = (
  code: Exclude<CodeName, "SUCCESS">,
  detail?: string,
  traceCode?: string,
): ResponseEnvelope => {
  const head: ResponseHead = { applyStatus: "FAIL", code: codeCatalogue[code].code, msg: headMessage(code, detail) }
  return { head: traceCode === undefined ? head : { ...head, traceCode } }
}

/**
 * A request whose signature is missing or does not verify: applyStatus ERROR
 * (docs/api.md#signatures). The spec gives no code for it; 403 UNAUTHORIZED is the
 * catalogue's nearest ("API not authorised"), and applyStatus ERROR tells it
 * apart from a missing grant, which answers FAIL. An unknown Partner-Id gets
 * the same answer, so the default sentence must be true of both: no key is
 * on file for an unknown id, and so none verifies.
 */
export const signatureErrorResponse = (
  detail = "request signature verification failed: no public key on file for this Partner-Id verifies the sign header over the raw body",
): ResponseEnvelope => ({
  head: { applyStatus: "ERROR", code: codeCatalogue.UNAUTHORIZED.code, msg: headMessage("UNAUTHORIZED", detail) },
})
