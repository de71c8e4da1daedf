/**
 * Reading a response: the signature over the raw bytes first, since nothing
 * unsigned may be trusted (every answer is signed: docs/api.md#signatures),
 * then the envelope, then the operation's body.
 */
import { issueMessage } from "@mizan/kernel"
import {
  decodeResponseBody,
  type HeadersLike,
  headerNames,
  isSuccessHead,
  type OperationPath,
  type PublicKey,
  parseJson,
  type ResponseBodyOf,
  ResponseEnvelopeWire,
  readHeader,
  verify,
} from "@mizan/protocol"
import { Result, Schema } from "effect"
import {
  MalformedResponse,
  type MerchantCallError,
  ResponseSignatureError,
  ServiceRefused,
  TransportError,
} from "./errors.ts"

export interface RawResponse {
  readonly status: number
  readonly headers: HeadersLike
  readonly bytes: Uint8Array
}

const decodeEnvelope = Schema.decodeUnknownResult(ResponseEnvelopeWire, { errors: "all" })

/**
 * A response's body as the service wrote it, once its signature verifies and
 * its head says success: what every answer shares, whatever the body's schema.
 */
export const readSignedBody = (
  response: RawResponse,
  servicePublicKey: PublicKey,
): Result.Result<unknown, MerchantCallError> => {
  const signature = readHeader(response.headers, headerNames.sign)
  const isHttpSuccess = response.status >= 200 && response.status <= 299
  if (signature === undefined)
    return Result.fail(
      isHttpSuccess
        ? new ResponseSignatureError({ reason: "missing", httpStatus: response.status })
        : new TransportError({ reason: "the service answered without a signed envelope", httpStatus: response.status }),
    )
  if (!verify(response.bytes, signature, servicePublicKey))
    return Result.fail(new ResponseSignatureError({ reason: "invalid", httpStatus: response.status }))

  const parsed = parseJson(response.bytes)
  if (Result.isFailure(parsed)) return Result.fail(new MalformedResponse({ detail: parsed.failure.message }))
  const envelope = decodeEnvelope(parsed.success)
  if (Result.isFailure(envelope))
    return Result.fail(new MalformedResponse({ detail: issueMessage(envelope.failure.issue) }))

  const { head, body } = envelope.success
  if (!isSuccessHead(head))
    return Result.fail(
      new ServiceRefused({
        applyStatus: head.applyStatus,
        code: head.code,
        msg: head.msg,
        traceCode: head.traceCode,
        httpStatus: response.status,
      }),
    )
  return Result.succeed(body)
}

export const readResponse = <P extends OperationPath>(
  path: P,
  response: RawResponse,
  servicePublicKey: PublicKey,
): Result.Result<ResponseBodyOf<P>, MerchantCallError> =>
  Result.flatMap(readSignedBody(response, servicePublicKey), (body) =>
    Result.mapError(decodeResponseBody(path, body), (error) => new MalformedResponse({ detail: error.message })),
  )
