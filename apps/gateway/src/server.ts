/**
 * The gateway's HTTP surface on effect/http: the merchant API and (in
 * sandbox mode) the sandbox API, both through the one envelope pipeline,
 * plus whatever extra routes the composition adds (pay page, OpenAPI).
 */
import { failureResponse } from "@mizan/protocol"
import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { Gateway } from "./gateway.ts"
import { type Api, type ApiResponse, handleApiRequest, respond } from "./pipeline.ts"

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
const serveApi = <R>(api: Api<R>) =>
  Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
    const gateway = yield* Gateway
    const body = yield* request.arrayBuffer.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(gateway.bodyLimitBytes)),
      Effect.result,
    )
    if (body._tag === "Failure") {
      const reason = body.failure.reason
      const tooLarge = reason._tag === "RequestParseError" && reason.reason === "BodyTooLarge"
      return toHttp(
        respond(
          failureResponse(
            "INVALID_PARAMETER",
            tooLarge ? `body is larger than ${gateway.bodyLimitBytes} bytes` : "body could not be read",
          ),
          gateway.servicePrivateKey,
          tooLarge ? 413 : 400,
        ),
      )
    }
    const path = new URL(request.url, "http://gateway").pathname
    return toHttp(yield* handleApiRequest(api, { path, headers: request.headers, body: new Uint8Array(body.success) }))
  })

/** The methods an API path answers 405 to: every operation is `POST`. */
const methodsNotAllowed = ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"] as const

/** 405 with `Allow: POST` and a signed envelope saying so, rather than an empty 404. */
const methodNotAllowed = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(Gateway, (gateway) => {
    const path = new URL(request.url, "http://gateway").pathname
    const answer = respond(
      failureResponse("INVALID_PARAMETER", `${request.method} is not allowed on ${path}: every operation is POST`),
      gateway.servicePrivateKey,
      405,
    )
    return toHttp({ ...answer, headers: { ...answer.headers, allow: "POST" } })
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
      const context = yield* Effect.context<R | Gateway>()
      const router = yield* HttpRouter.HttpRouter
      const serve = serveApi(api)
      const paths = `${api.basePath}/*` as `/${string}`
      yield* router.add("POST", paths, (request) => serve(request).pipe(Effect.provideContext(context)))
      for (const method of methodsNotAllowed)
        yield* router.add(method, paths, (request) => methodNotAllowed(request).pipe(Effect.provideContext(context)))
    }),
  )

export const healthRoute = HttpRouter.add("GET", "/health", HttpServerResponse.text("ok"))

export type RouteLayer = Layer.Layer<never, never, HttpRouter.HttpRouter>
