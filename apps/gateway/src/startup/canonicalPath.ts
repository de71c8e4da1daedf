/**
 * One path, one meaning: a request path that is not written canonically is
 * refused before any route is found. The router, the handler and a proxy's
 * path allow-list in front of the gateway each read a path; once they
 * normalised it differently (`/sgs/api/acquire2/getOrder/../placeOrder` ran
 * placeOrder past a proxy that allowed only getOrder), so now a path with
 * anything to normalise (dot segments, encoded dots, slashes or plain
 * characters, doubled or trailing slashes, backslashes) is a 400: signed in
 * the spec's envelope (INVALID_PARAMETER) under an API's base path, plain
 * elsewhere. The access log records the path as it was sent.
 */
import { failureResponse, headerNames, readHeader } from "@mizan/protocol"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { claimedPartnerId, recordAccess } from "../pipeline/accessLog.ts"
import { ApiSettings } from "../pipeline/apiSettings.ts"
import { respondOffLoop } from "../pipeline/pipeline.ts"

/** A percent-encoding of what has a plain spelling: a letter, a digit, `-`, `.`, `_`, `~` (RFC 3986's unreserved) or `/` or `\`. */
const isPlainlySpelt = (encoded: string): boolean =>
  /[A-Za-z0-9\-._~/\\]/.test(String.fromCharCode(Number.parseInt(encoded, 16)))

/** Each way a path can be written so that two readers may read it differently, and how the refusal names it. */
const notCanonical: ReadonlyArray<readonly [has: (path: string) => boolean, what: string]> = [
  [(path) => !path.startsWith("/"), "it does not start with /"],
  [(path) => path.includes("\\"), "it has a backslash"],
  [(path) => path.includes("#"), "it has a fragment (#)"],
  [(path) => /%(?![0-9A-Fa-f]{2})/.test(path), "it has a % that encodes nothing"],
  [
    (path) => Array.from(path.matchAll(/%([0-9A-Fa-f]{2})/g), (m) => m[1] ?? "").some(isPlainlySpelt),
    "it percent-encodes a character that has a plain spelling (%2e, %2f, %5c, a letter or a digit)",
  ],
  [(path) => path.includes("//"), "it has a doubled slash"],
  [(path) => path.split("/").some((segment) => segment === "." || segment === ".."), "it has a dot segment"],
  [(path) => path.length > 1 && path.endsWith("/"), "it ends with a slash"],
]

/** Why this path (the request target before its `?`) is not canonical, or undefined when it is. */
export const pathProblem = (path: string): string | undefined => notCanonical.find(([has]) => has(path))?.[1]

/**
 * The path as the client sent it. `request.url` of an absolute-form target
 * (`POST http://host/a/../b`) is already normalised by the server, so the
 * path is read from the original target, after its scheme and authority.
 */
export const pathAsSent = (request: HttpServerRequest.HttpServerRequest): string => {
  const target = request.originalUrl
  const afterAuthority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target)
  const path = afterAuthority === null ? target : target.slice(afterAuthority[0].length)
  return path.split("?")[0] ?? ""
}

/** The APIs whose answers are the spec's signed envelope; any other path is answered plainly. */
const apiBasePaths = ["/sgs/api/", "/sgs/sandbox/"]

/** The longest piece of a refused path a message repeats. */
const pathShownMaxChars = 120

const refusal = Effect.fnUntraced(function* (
  settings: ApiSettings["Service"],
  request: HttpServerRequest.HttpServerRequest,
  path: string,
  why: string,
) {
  const startedAt = performance.now()
  const shown = path.length > pathShownMaxChars ? `${path.slice(0, pathShownMaxChars)}...` : path
  const detail = `the path ${shown} is not canonical: ${why}; send it as docs/api.md writes it`
  const api = apiBasePaths.some((base) => path.startsWith(base))
  const envelope = failureResponse("INVALID_PARAMETER", detail)
  const response = api
    ? yield* respondOffLoop(envelope, settings.servicePrivateKey, 400)
    : { status: 400, headers: { "content-type": "text/plain; charset=utf-8" }, body: `400 Bad Request: ${detail}\n` }
  yield* recordAccess({
    method: request.method,
    path,
    partnerId: claimedPartnerId(readHeader(request.headers, headerNames.partnerId)),
    operation: undefined,
    traceCode: undefined,
    code: api ? envelope.head.code : undefined,
    status: 400,
    durationMs: performance.now() - startedAt,
  })
  return HttpServerResponse.text(response.body, {
    status: 400,
    headers: response.headers,
    contentType: response.headers["content-type"],
  })
})

/** Every route of the server, behind the check: a path that is not canonical never reaches the router. */
export const canonicalPathsOnly = HttpRouter.middleware(
  Effect.map(
    ApiSettings,
    (settings) => (httpEffect) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const path = pathAsSent(request)
        const why = pathProblem(path)
        return why === undefined ? httpEffect : refusal(settings, request, path, why)
      }),
  ),
  { global: true },
)
