/**
 * One pipeline for every operation (docs/architecture.md, The apps):
 * Partner-Id, the signature over the raw bytes, JSON, requestTime window,
 * grant, rate limit, bizContent, the URLs it names, the handler, then the
 * response encoded and signed over its own raw bytes. No operation touches
 * the envelope itself.
 *
 * Business and protocol errors answer HTTP 200 with the code in `head`,
 * signed (docs/api.md#transport). An unexpected failure answers
 * 500 SYSTEM_ERROR with a traceCode that finds it in the log, and never
 * says what went wrong inside.
 */
import { randomBytes } from "node:crypto"
import type { StoreError, VersionConflict } from "@mizan/eventsourcing"
import { type CodeName, issueMessage, type Rejection, type Timestamp } from "@mizan/kernel"
import {
  type AddressPolicyMode,
  type DecodedRequestOf,
  encodeWire,
  failureResponse,
  type HeadersLike,
  headerNames,
  merchantUrlRefusal,
  type OperationPath,
  operationAliases,
  operations,
  parseJson,
  partnerIdMaxChars,
  RequestEnvelope,
  type ResponseBodyOf,
  type ResponseEnvelope,
  ResponseHead,
  readHeader,
  sign,
  signatureErrorResponse,
  signOffLoop,
  stringifyJson,
  successResponse,
  verifyOffLoop,
  withHeadSuccess,
} from "@mizan/protocol"
import { Cause, Clock, Effect, Predicate, Result, Schema } from "effect"
import { ApiSettings, type Merchant } from "./apiSettings.ts"
import { fieldNamesOf, wireDetail } from "./wireFields.ts"

export interface ApiRequest {
  /** The path after the host, e.g. `/sgs/api/acquire2/placeOrder`. */
  readonly path: string
  readonly headers: HeadersLike
  readonly body: Uint8Array
}

export interface ApiResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * What a handler knows of the call it serves. Times are on the merchant's
 * clock: real time in production; in the sandbox, real time plus the
 * merchant's test-clock offset, applied to the times the merchant sent too
 * (`requestTime`, and `toMerchantTime` for others such as `expiredTime`),
 * so that every rule compares times on one clock.
 */
export interface Call {
  readonly merchant: Merchant
  readonly requestTime: Timestamp
  /** The merchant's time when the request arrived; every command carries it as `now`. */
  readonly now: Timestamp
  readonly traceCode: string
  /** A time the merchant sent (on its own clock, real time), read on the merchant's sandbox time. */
  readonly toMerchantTime: (sent: Timestamp) => Timestamp
}

export type HandlerError = Rejection | StoreError | VersionConflict

export type Handler<P extends OperationPath, R> = (
  call: Call,
  request: DecodedRequestOf<P>,
) => Effect.Effect<ResponseBodyOf<P>, HandlerError, R>

/** The merchant API's handlers: one per path of the protocol's operation catalogue. */
export type Handlers<R> = { readonly [P in OperationPath]: Handler<P, R> }

/** A wire schema with no services: decodes the wire form, encodes back to it. */
// biome-ignore lint/suspicious/noExplicitAny: an operation table holds operations of many types
type AnyWireSchema = Schema.Codec<any, any, never, never>

/** One row of an operation table: a path's bizContent schema, response schema and handler. */
export interface ApiOperation<R> {
  readonly request: AnyWireSchema
  readonly response: AnyWireSchema
  // biome-ignore lint/suspicious/noExplicitAny: typed where the row is built (see `operation`)
  readonly handle: (call: Call, request: any) => Effect.Effect<unknown, HandlerError, R>
  /** Whether the merchant needs a grant for it (the sandbox's helpers need none). */
  readonly granted: boolean
  /** Whether every answer's head carries `success` (the protocol's `headSuccess`: create order). */
  readonly headSuccess?: boolean
}

/** An operation table under a base path: the merchant API (`/sgs/api`), the sandbox API (`/sgs/sandbox`). */
export interface Api<R> {
  readonly basePath: string
  readonly operations: Readonly<Record<string, ApiOperation<R>>>
  /** Other paths of the same operations (alias -> operation path): one grant, one rate limit, one answer. */
  readonly aliases?: Readonly<Record<string, string>>
  /** Why a path under `basePath` names no operation, said after "no operation at <path>": an API switched off. */
  readonly absentBecause?: string
}

/** A typed row of an operation table. */
export const operation = <Request extends AnyWireSchema, Response extends AnyWireSchema, R>(
  request: Request,
  response: Response,
  handle: (call: Call, request: Request["Type"]) => Effect.Effect<Response["Type"], HandlerError, R>,
  granted = true,
): ApiOperation<R> => ({ request, response, handle, granted })

/** The merchant API: the protocol's operation catalogue joined with the gateway's handlers. */
export const merchantApi = <R>(handlers: Handlers<R>): Api<R> => ({
  basePath: "/sgs/api",
  operations: Object.fromEntries(
    (Object.keys(operations) as Array<OperationPath>).map((path) => [
      path,
      {
        ...operation(
          operations[path].request as AnyWireSchema,
          operations[path].response as AnyWireSchema,
          handlers[path],
        ),
        headSuccess: operations[path].headSuccess,
      },
    ]),
  ),
  aliases: operationAliases,
})

/** Report every broken field at once, so a merchant fixes a request in one round trip. */
const allErrors = { errors: "all" } as const

/**
 * Clients built on serialisers that write absent fields as `null` (Jackson's
 * default) mean "absent": a null-valued key is dropped before decoding, so
 * an optional field may be null and a required one still reads as missing.
 */
export const withoutNullFields = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNullFields)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([key, field]) => [key, withoutNullFields(field)]),
  )
}

/** `"bizContent": null` (the PHP SDK's habit for operations without parameters) means absent, as it does for any field. */
const decodeBizContent = (schema: AnyWireSchema, bizContent: unknown): Result.Result<unknown, string> => {
  const decoded = Schema.decodeUnknownResult(
    schema,
    allErrors,
  )(bizContent === null ? undefined : withoutNullFields(bizContent))
  if (Result.isSuccess(decoded)) return Result.succeed(decoded.success)
  return Result.fail(
    bizContent === undefined || bizContent === null
      ? "bizContent is required"
      : issueMessage(decoded.failure.issue, ["bizContent"]),
  )
}

/**
 * The first URL a merchant sent that the service must not take: every field
 * named `...Url` (`notifyUrl`, `paySceneParams.redirectUrl`, a refund's or a
 * transfer's `notifyUrl`), checked as it arrives rather than given up a day
 * later at delivery (`merchantUrlRefusal`).
 */
const merchantUrlProblem = (value: unknown, mode: AddressPolicyMode, path: string): string | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, field] of Object.entries(value)) {
    const fieldPath = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`
    const problem =
      typeof field === "string" && key.endsWith("Url")
        ? merchantUrlRefusal(field, mode)
        : merchantUrlProblem(field, mode, fieldPath)
    if (problem !== undefined) return typeof field === "string" ? `${fieldPath} ${problem}` : problem
  }
  return undefined
}

const traceCodeBytes = 8
/**
 * Random bytes for trace codes, drawn 4 KiB at a time: one call to the
 * system's generator per 512 requests rather than one per request (a call
 * for 8 bytes cost about 10 µs, 2% of a create).
 */
const traceCodePoolBytes = 4_096
let traceCodePool = Buffer.alloc(0)
let traceCodePoolOffset = 0

/** A short id for `head.traceCode` and the log line that explains a failure. */
export const newTraceCode = (): string => {
  if (traceCodePoolOffset + traceCodeBytes > traceCodePool.length) {
    traceCodePool = randomBytes(traceCodePoolBytes)
    traceCodePoolOffset = 0
  }
  traceCodePoolOffset += traceCodeBytes
  return traceCodePool.toString("hex", traceCodePoolOffset - traceCodeBytes, traceCodePoolOffset)
}

/** A refusal that ends the pipeline early, with the head it answers (a refusal has no body). */
class Refused extends Schema.TaggedError<Refused>()("Refused", { head: ResponseHead }) {}

const refuseWith = (envelope: ResponseEnvelope) => Effect.fail(new Refused({ head: envelope.head }))

const refuse = (code: Exclude<CodeName, "SUCCESS">, msg?: string) => refuseWith(failureResponse(code, msg))

/**
 * What a requestTime sent in seconds (as `date +%s` and many clocks give it)
 * is: read as milliseconds it lands in January 1970, and "more than 15
 * minutes before" alone leaves the merchant hunting a clock skew.
 */
const secondsHint = (requestTime: Timestamp, nowMs: number, windowMs: number): string =>
  Math.abs(requestTime * 1000 - nowMs) <= windowMs
    ? `: ${requestTime} reads as ${new Date(requestTime).toISOString()}; send milliseconds since 1970, not seconds`
    : ""

const checkRequestTime = (requestTime: Timestamp, nowMs: number, windowMs: number) => {
  if (requestTime < nowMs - windowMs)
    return refuse(
      "REQUESTTIME_TOO_EARLY",
      `requestTime is more than ${windowMs / 60_000} minutes before the service's time${secondsHint(requestTime, nowMs, windowMs)}`,
    )
  if (requestTime > nowMs + windowMs)
    return refuse(
      "REQUESTTIME_TOO_LATER",
      `requestTime is more than ${windowMs / 60_000} minutes after the service's time`,
    )
  return Effect.void
}

/**
 * The trace options of the spans every request opens (`Gateway.request`,
 * `Handler PATH`): no captured stack trace. It would name the same line of
 * the pipeline for every request, at half a span's cost.
 */
export const perRequestSpan = { captureStackTrace: false } as const

/**
 * Untraced, as are `dispatch` and the handlers' own steps: a request's trace
 * is `Gateway.request`, its handler, its flows, commands and store
 * operations (apps/gateway/OPERATING.md, Traces). A span costs the event loop
 * about 3.5 µs (a captured stack trace is half of it) whether or not a
 * collector is named (docs/decisions/0004-effect-http-and-schema-stay.md).
 */
export const authenticate = Effect.fnUntraced(function* (request: ApiRequest) {
  const gateway = yield* ApiSettings
  const partnerId = readHeader(request.headers, headerNames.partnerId)?.trim()
  if (partnerId === undefined || partnerId === "")
    return yield* refuse("INVALID_PARAMETER", "header Partner-Id is required")
  if (partnerId.length > partnerIdMaxChars)
    return yield* refuse("INVALID_PARAMETER", `header Partner-Id must be at most ${partnerIdMaxChars} characters`)
  const merchant = gateway.merchantOf(partnerId)
  const signature = readHeader(request.headers, headerNames.sign)
  // An unknown Partner-Id answers exactly as a signature that does not verify, in its words and in
  // its time, so that the API never tells a caller which partner ids exist: its signature is checked
  // too, against a stand-in key (the service's own, an RSA key of a merchant's size), and refused
  // whatever that check says.
  const verified = yield* Effect.promise(() =>
    verifyOffLoop(request.body, signature, merchant?.publicKey ?? gateway.servicePublicKey),
  )
  if (merchant === undefined || !verified)
    return yield* refuseWith(
      signature === undefined || signature.trim() === ""
        ? signatureErrorResponse("header sign is required: sign the raw body with the merchant's private key")
        : signatureErrorResponse(),
    )
  return merchant
})

const dispatch = Effect.fnUntraced(function* <R>(
  path: string,
  row: ApiOperation<R>,
  request: ApiRequest,
  traceCode: string,
) {
  const gateway = yield* ApiSettings
  const merchant = yield* authenticate(request)
  const parsed = parseJson(request.body)
  if (Result.isFailure(parsed)) return yield* refuse("INVALID_PARAMETER", parsed.failure.message)
  // The schema would say only "must be an object": the whole body has no field path to name.
  if (!Predicate.isObject(parsed.success)) return yield* refuse("INVALID_PARAMETER", "body must be an object")
  const envelope = Schema.decodeUnknownResult(RequestEnvelope)(parsed.success)
  if (Result.isFailure(envelope)) return yield* refuse("INVALID_PARAMETER", issueMessage(envelope.failure.issue))
  if (envelope.success.partnerId !== undefined && envelope.success.partnerId !== merchant.partnerId)
    return yield* refuse("INVALID_PARAMETER", "partnerId in the body must be the Partner-Id of the header")
  const { clocks } = gateway
  // The window guards against replays, so it is measured against real time: a sandbox whose
  // test clock was moved forward still takes the merchant's own requestTime.
  yield* checkRequestTime(envelope.success.requestTime, clocks.realNow(), gateway.requestTimeWindowMs)
  if (gateway.mode === "sandbox") yield* clocks.ensureLoaded(merchant.partnerId)
  const offsetMs = clocks.offsetOf(merchant.partnerId)
  const now = clocks.nowOf(merchant.partnerId)
  if (row.granted && !merchant.mayCall(path))
    return yield* refuse("UNAUTHORIZED", `${path} is not granted to ${merchant.partnerId}`)
  if (!gateway.rateLimiter.tryTake(merchant.partnerId, clocks.realNow()))
    return yield* refuse("RATE_LIMIT_REJECT", "too many requests: slow down and retry")
  const bizContent = decodeBizContent(row.request, envelope.success.bizContent)
  if (Result.isFailure(bizContent)) return yield* refuse("INVALID_PARAMETER", bizContent.failure)
  const urlProblem = merchantUrlProblem(bizContent.success, gateway.mode, "bizContent")
  if (urlProblem !== undefined) return yield* refuse("INVALID_PARAMETER", urlProblem)
  const toMerchantTime = (sent: Timestamp) => (sent + offsetMs) as Timestamp
  const requestTime = toMerchantTime(envelope.success.requestTime)
  const call: Call = { merchant, requestTime, now, traceCode, toMerchantTime }
  const body = yield* row.handle(call, bizContent.success).pipe(
    Effect.withSpan(`Handler ${path}`, { attributes: { partnerId: merchant.partnerId } }, perRequestSpan),
    // Whatever the handler reads of the clock (the store's recordedAt above all) is the merchant's time.
    Effect.provideService(Clock.Clock, clocks.clockOf(merchant.partnerId)),
    // The one place a refusal becomes a wire answer: the domain's field names become the request's.
    Effect.catchTag("Rejection", (rejection) =>
      refuse(
        rejection.code as Exclude<CodeName, "SUCCESS">,
        wireDetail(rejection, fieldNamesOf(path, bizContent.success)),
      ),
    ),
  )
  return successResponse(encodeWire(row.response, body, "body"))
})

/** Signs (off the event loop) and frames an envelope: what every answer of the pipeline goes out as. */
export const respondOffLoop = (
  envelope: ResponseEnvelope,
  privateKey: ApiSettings["Service"]["servicePrivateKey"],
  status = 200,
): Effect.Effect<ApiResponse> => {
  const body = stringifyJson(envelope)
  // Signing with a key that parsed cannot fail; if it ever did, the server would answer a bare 500.
  return Effect.map(
    Effect.promise(() => signOffLoop(body, privateKey)),
    (signature): ApiResponse => ({
      status,
      headers: { "content-type": "application/json; charset=utf-8", sign: signature },
      body,
    }),
  )
}

/** Signs and frames an envelope; every response that carries a body is signed. */
export const respond = (
  envelope: ResponseEnvelope,
  privateKey: ApiSettings["Service"]["servicePrivateKey"],
  status = 200,
) => {
  const body = stringifyJson(envelope)
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", sign: sign(body, privateKey) },
    body,
  } satisfies ApiResponse
}

const withTraceCode = (envelope: ResponseEnvelope, traceCode: string): ResponseEnvelope => ({
  ...envelope,
  head: { ...envelope.head, traceCode },
})

/** What one request came to: the signed response, and what the access log and the metrics say of it. */
export interface ApiOutcome {
  readonly response: ApiResponse
  readonly traceCode: string
  /** The operation path served (an alias is served as its operation); undefined when the path names none. */
  readonly operation: string | undefined
  /** The answer's `head.code`. */
  readonly code: string
}

/**
 * Runs one merchant API request through the pipeline. Never fails: every outcome is a signed response.
 * Untraced: it names the traceCode on the caller's "Gateway.request" span, so it opens none of its own.
 */
export const handleApiRequest = Effect.fnUntraced(function* <R>(api: Api<R>, request: ApiRequest) {
  const gateway = yield* ApiSettings
  const traceCode = newTraceCode()
  yield* Effect.annotateCurrentSpan({ traceCode })
  const operationPath = request.path.startsWith(`${api.basePath}/`)
    ? request.path.slice(api.basePath.length)
    : undefined
  const path = operationPath === undefined ? undefined : (api.aliases?.[operationPath] ?? operationPath)
  const row = path === undefined ? undefined : api.operations[path]
  const answer = (envelope: ResponseEnvelope, operation: string | undefined, status = 200) =>
    Effect.map(
      respondOffLoop(withTraceCode(envelope, traceCode), gateway.servicePrivateKey, status),
      (response): ApiOutcome => ({ response, traceCode, operation, code: envelope.head.code }),
    )
  if (path === undefined || row === undefined)
    return yield* answer(
      failureResponse(
        "SERVICE_NOT_AVAILABLE",
        `no operation at ${request.path}${api.absentBecause === undefined ? "" : `: ${api.absentBecause}`}`,
      ),
      undefined,
    )
  // A refusal is HTTP 200; an unexpected failure is HTTP 500 (docs/api.md#transport), so that a
  // proxy, a load balancer or a merchant's HTTP client counts it as the server error it is.
  const unexpected = { envelope: failureResponse("SYSTEM_ERROR", "retry later, quoting the traceCode"), status: 500 }
  const { envelope, status } = yield* dispatch(path, row, request, traceCode).pipe(
    Effect.map((envelope) => ({ envelope, status: 200 })),
    Effect.catchTag("Refused", (refused) => Effect.succeed({ envelope: { head: refused.head }, status: 200 })),
    Effect.catch((failure) => Effect.as(Effect.logError(`${traceCode} ${path} failed`, failure), unexpected)),
    Effect.catchCause((cause) =>
      Effect.as(Effect.logError(`${traceCode} ${path} defect`, Cause.pretty(cause)), unexpected),
    ),
    // Every span below (handler, flow, command, store) carries the traceCode the merchant is told.
    Effect.annotateSpans({ traceCode }),
  )
  return yield* answer(row.headSuccess === true ? withHeadSuccess(envelope) : envelope, path, status)
})
