/**
 * The merchant's client of the service: builds `{ requestTime, bizContent }`,
 * serialises it once, signs those exact bytes, POSTs them, verifies the
 * response's signature over the bytes received, and decodes the body of a
 * successful answer (amounts in fils).
 */

import { acceptRenamedKeys } from "@mizan/kernel"
import {
  apiBasePath,
  apiVersion,
  encryptField,
  type HeadersLike,
  headerNames,
  jsonContentType,
  type OperationPath,
  parsePrivateKey,
  parsePublicKey,
  type RequestOf,
  type ResponseBodyOf,
  sandboxBasePath,
  sign,
  stringifyJson,
} from "@mizan/protocol"
import { Effect, type Result } from "effect"
import { type MerchantCallError, TransportError } from "./errors.ts"
import { type NotificationRejected, type ReceivedNotification, verifyNotification } from "./notifications.ts"
import { type Answer, type RawResponse, readAnswer, readSignedAnswer } from "./response.ts"

/** A request that gets no answer in this time is abandoned; the merchant retries it (every create is idempotent). */
export const defaultRequestTimeoutMs = 30_000
/** Responses are small; anything larger is refused before it is read into memory. */
export const defaultResponseMaxBytes = 1024 * 1024

export interface MerchantClientOptions {
  /** The environment's base address, without the `/sgs/api` base path: `https://uat.example.com`. */
  readonly baseUrl: string
  /** The merchant's Partner-Id (at most 12 characters). */
  readonly partnerId: string
  /** The merchant's private key, PKCS#8 PEM: signs every request. */
  readonly merchantPrivateKeyPem: string
  /** The service's public key, SPKI PEM: verifies responses and notifications, encrypts fields. */
  readonly servicePublicKeyPem: string
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof fetch
  /** Milliseconds since the epoch for `requestTime`; defaults to `Date.now`. Tests pass a test clock. */
  readonly clock?: () => number
  readonly requestTimeoutMs?: number
  readonly responseMaxBytes?: number
  /** @deprecated `responseMaxBytes`'s name before its unit went last: still read, with a warning. */
  readonly responseBytesMax?: number
}

/** Options renamed so that a bound says its unit last, each old name with its new one. */
export const renamedClientOptions = { responseBytesMax: "responseMaxBytes" } as const

/** The options under their current names; each old name met is said as a process warning. */
const currentOptions = (options: MerchantClientOptions): MerchantClientOptions => {
  const renamed = acceptRenamedKeys(options, renamedClientOptions)
  for (const warning of renamed.warnings)
    process.emitWarning(`merchant client options: ${warning}`, "DeprecationWarning")
  return renamed.value
}

/** The bizContent argument: optional where the operation takes none (the payout ability list). */
export type BizContentArgs<P extends OperationPath> =
  undefined extends RequestOf<P> ? [bizContent?: RequestOf<P>] : [bizContent: RequestOf<P>]

export interface MerchantClient {
  readonly partnerId: string
  /** Calls an operation: the decoded response body (amounts in fils), or a typed failure. */
  readonly call: <P extends OperationPath>(
    path: P,
    ...bizContent: BizContentArgs<P>
  ) => Effect.Effect<ResponseBodyOf<P>, MerchantCallError>
  /**
   * `call`, answering the head beside the body: its `traceCode` names the request in the service's
   * logs, successes too, for a merchant to keep and quote when asking about an answer.
   */
  readonly callWithHead: <P extends OperationPath>(
    path: P,
    ...bizContent: BizContentArgs<P>
  ) => Effect.Effect<Answer<P>, MerchantCallError>
  /**
   * Calls a sandbox helper (`payOrder`, `advanceClock`, ...: `POST /sgs/sandbox/<helper>`, served in
   * sandbox mode only), signed and verified as `call` is. The client does not know the helpers'
   * schemas, so the answer is the body as the service wrote it: amounts in AED, as on the wire.
   */
  readonly sandbox: (helper: string, bizContent?: unknown) => Effect.Effect<unknown, MerchantCallError>
  /** Encrypts a field (card number, IBAN, name) with the service's public key. */
  readonly encryptField: (plain: string) => string
  /** Verifies a notification's signature over its raw body (the bytes as received) and decodes it. */
  readonly verifyNotification: (
    headers: HeadersLike,
    rawBody: Uint8Array | string,
  ) => Result.Result<ReceivedNotification, NotificationRejected>
}

const utf8 = new TextEncoder()

/** Reads at most `maxBytes` of a body, so a misbehaving peer cannot exhaust memory. */
const readBounded = async (response: Response, maxBytes: number): Promise<Uint8Array | undefined> => {
  const reader = response.body?.getReader()
  if (reader === undefined) return new Uint8Array(0)
  const chunks: Array<Uint8Array> = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

export const makeMerchantClient = (given: MerchantClientOptions): MerchantClient => {
  const options = currentOptions(given)
  // Keys are parsed once, here; a bad PEM throws KeyError now rather than on the first call.
  const merchantKey = parsePrivateKey(options.merchantPrivateKeyPem)
  const serviceKey = parsePublicKey(options.servicePublicKeyPem)
  const fetchImpl = options.fetch ?? globalThis.fetch
  const clock = options.clock ?? Date.now
  const timeoutMs = options.requestTimeoutMs ?? defaultRequestTimeoutMs
  const maxBytes = options.responseMaxBytes ?? defaultResponseMaxBytes
  const origin = options.baseUrl.replace(/\/+$/, "")

  const exchange = (url: string, body: Uint8Array, signature: string) =>
    Effect.tryPromise({
      try: async (interrupted): Promise<RawResponse> => {
        const response = await fetchImpl(url, {
          method: "POST",
          headers: {
            [headerNames.partnerId]: options.partnerId,
            [headerNames.sign]: signature,
            [headerNames.contentType]: jsonContentType,
            [headerNames.apiVersion]: apiVersion,
          },
          body,
          signal: AbortSignal.any([interrupted, AbortSignal.timeout(timeoutMs)]),
        })
        const bytes = await readBounded(response, maxBytes)
        if (bytes === undefined)
          throw new TransportError({ reason: `response larger than ${maxBytes} bytes`, httpStatus: response.status })
        return { status: response.status, headers: response.headers, bytes }
      },
      catch: (cause) =>
        cause instanceof TransportError
          ? cause
          : new TransportError({ reason: failureOf(cause), httpStatus: undefined }),
    })

  /** What went wrong, from the error's name and system code only: never a URL with credentials or a body. */
  const failureOf = (cause: unknown): string => {
    if (!(cause instanceof Error)) return "request failed"
    if (cause.name === "TimeoutError") return `no response within ${timeoutMs} ms`
    const code = (cause.cause as { readonly code?: unknown } | undefined)?.code
    return typeof code === "string" ? `request failed: ${code}` : "request failed"
  }

  /** Builds `{ requestTime, bizContent }`, serialises it once and signs exactly those bytes, then POSTs them. */
  const post = (url: string, bizContent: unknown) => {
    const envelope = bizContent === undefined ? { requestTime: clock() } : { requestTime: clock(), bizContent }
    const body = utf8.encode(stringifyJson(envelope))
    return exchange(url, body, sign(body, merchantKey))
  }

  const callWithHead = <P extends OperationPath>(path: P, ...[bizContent]: BizContentArgs<P>) =>
    post(`${origin}${apiBasePath}${path}`, bizContent).pipe(
      Effect.flatMap((raw) => Effect.fromResult(readAnswer(path, raw, serviceKey))),
      Effect.withSpan("MerchantClient.call", { attributes: { path } }),
    )

  const call = <P extends OperationPath>(path: P, ...bizContent: BizContentArgs<P>) =>
    Effect.map(callWithHead(path, ...bizContent), (answer) => answer.body)

  const sandbox = (helper: string, bizContent?: unknown) =>
    post(`${origin}${sandboxBasePath}/${helper.replace(/^\/+/, "")}`, bizContent).pipe(
      Effect.flatMap((raw) => Effect.fromResult(readSignedAnswer(raw, serviceKey))),
      Effect.map((answer) => answer.body),
      Effect.withSpan("MerchantClient.sandbox", { attributes: { helper } }),
    )

  return {
    partnerId: options.partnerId,
    call,
    callWithHead,
    sandbox,
    encryptField: (plain) => encryptField(plain, serviceKey),
    verifyNotification: (headers, rawBody) => verifyNotification(serviceKey, headers, rawBody),
  }
}
