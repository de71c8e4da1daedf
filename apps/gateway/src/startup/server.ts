/**
 * The gateway's HTTP surface on effect/http: the merchant API and (in
 * sandbox mode) the sandbox API, both through the one envelope pipeline,
 * plus whatever extra routes the composition adds (pay page, OpenAPI).
 */
import { failureResponse, headerNames, readHeader } from "@mizan/protocol"
import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { claimedPartnerId, recordAccess } from "../pipeline/accessLog.ts"
import { ApiSettings } from "../pipeline/apiSettings.ts"
import {
  type Api,
  type ApiOutcome,
  type ApiResponse,
  handleApiRequest,
  perRequestSpan,
  respond,
} from "../pipeline/pipeline.ts"

const toHttp = (response: ApiResponse) =>
  HttpServerResponse.text(response.body, {
    status: response.status,
    headers: response.headers,
    contentType: response.headers["content-type"] ?? "application/json",
  })

/**
 * Reads the raw body under the size limit. An oversized body is a transport
 * failure, outside the envelope (docs/api.md#transport): 413, still with a signed
 * envelope so clients can read why.
 */
const answerApi = Effect.fnUntraced(function* <R>(
  api: Api<R>,
  request: HttpServerRequest.HttpServerRequest,
  path: string,
) {
  const gateway = yield* ApiSettings
  const body = yield* request.arrayBuffer.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(gateway.bodyLimitBytes)),
    Effect.result,
  )
  if (body._tag === "Success")
    return yield* handleApiRequest(api, { path, headers: request.headers, body: new Uint8Array(body.success) })
  const reason = body.failure.reason
  const tooLarge = reason._tag === "RequestParseError" && reason.reason === "BodyTooLarge"
  const envelope = failureResponse(
    "INVALID_PARAMETER",
    tooLarge ? `body is larger than ${gateway.bodyLimitBytes} bytes` : "body could not be read",
  )
  return {
    response: respond(envelope, gateway.servicePrivateKey, tooLarge ? 413 : 400),
    traceCode: undefined,
    operation: undefined,
    code: envelope.head.code,
  }
})

/** What a request to an API path came to; the access log's traceCode, operation and code. */
type Answer<R> = (
  request: HttpServerRequest.HttpServerRequest,
  path: string,
) => Effect.Effect<Omit<ApiOutcome, "traceCode"> & { readonly traceCode: string | undefined }, never, R | ApiSettings>

/** Serves one request to an API path, as a span of its own, and writes its access-log line. */
const served = <R>(answer: Answer<R>) =>
  Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
    const startedAt = performance.now()
    const path = new URL(request.url, "http://gateway").pathname
    const outcome = yield* answer(request, path).pipe(
      Effect.withSpan("Gateway.request", { kind: "server", attributes: { "http.route": path } }, perRequestSpan),
    )
    yield* recordAccess({
      method: request.method,
      path,
      partnerId: claimedPartnerId(readHeader(request.headers, headerNames.partnerId)),
      operation: outcome.operation,
      traceCode: outcome.traceCode,
      code: outcome.code,
      status: outcome.response.status,
      durationMs: performance.now() - startedAt,
    })
    return toHttp(outcome.response)
  })

/** The methods an API path answers 405 to: every operation is `POST`. */
const methodsNotAllowed = ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"] as const

/** 405 with `Allow: POST` and a signed envelope saying so, rather than an empty 404. */
const methodNotAllowed: Answer<never> = (request, path) =>
  Effect.map(ApiSettings, (gateway) => {
    const envelope = failureResponse(
      "INVALID_PARAMETER",
      `${request.method} is not allowed on ${path}: every operation is POST`,
    )
    const response = respond(envelope, gateway.servicePrivateKey, 405)
    return {
      response: { ...response, headers: { ...response.headers, allow: "POST" } },
      traceCode: undefined,
      operation: undefined,
      code: envelope.head.code,
    }
  })

/**
 * The routes of one operation table: every operation is `POST` under its
 * base path, and any other method answers 405. The services the handlers
 * need are taken once, when the route is built, and given to each request
 * (so they are not per-request requirements of the server).
 */
export const apiRoutes = <R>(api: Api<R>) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const context = yield* Effect.context<R | ApiSettings>()
      const router = yield* HttpRouter.HttpRouter
      const serve = served((request, path) => answerApi(api, request, path))
      const refuseMethod = served(methodNotAllowed)
      const paths = `${api.basePath}/*` as `/${string}`
      yield* router.add("POST", paths, (request) => serve(request).pipe(Effect.provideContext(context)))
      for (const method of methodsNotAllowed)
        yield* router.add(method, paths, (request) => refuseMethod(request).pipe(Effect.provideContext(context)))
    }),
  )

export type RouteLayer = Layer.Layer<never, never, HttpRouter.HttpRouter>
