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
  operations,
  type PublicKey,
  parseJson,
  type ResponseBodyOf,
  ResponseEnvelopeWire,
  type ResponseHead,
  type ResponseHeadOf,
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

/** A successful answer's head and its body as the service wrote it. */
export interface SignedAnswer {
  /** `applyStatus` SUCCESS and code "0"; its `traceCode` names the request in the service's logs. */
  readonly head: ResponseHead
  readonly body: unknown
}

/**
 * A response's head and body as the service wrote them, once its signature
 * verifies and its head says success: what every answer shares, whatever the
 * body's schema.
 */
export const readSignedAnswer = (
  response: RawResponse,
  servicePublicKey: PublicKey,
): Result.Result<SignedAnswer, MerchantCallError> => {
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
  return Result.succeed({ head, body })
}

/**
 * A successful answer of an operation: its head (with `success`, true, where
 * the operation's answers carry it: create order), and its body decoded
 * (amounts in fils).
 */
export interface Answer<P extends OperationPath> {
  readonly head: ResponseHeadOf<P>
  readonly body: ResponseBodyOf<P>
}

/** The head as the operation answers it: a create order's without `success` is not the service's answer. */
const headOf = <P extends OperationPath>(
  path: P,
  head: ResponseHead,
): Result.Result<ResponseHeadOf<P>, MalformedResponse> =>
  !operations[path].headSuccess || head.success === true
    ? Result.succeed(head as ResponseHeadOf<P>)
    : Result.fail(new MalformedResponse({ detail: `head.success must be true on a successful answer of ${path}` }))

/** `readResponse`, keeping the answer's head (its `traceCode`) beside the decoded body. */
export const readAnswer = <P extends OperationPath>(
  path: P,
  response: RawResponse,
  servicePublicKey: PublicKey,
): Result.Result<Answer<P>, MerchantCallError> =>
  Result.flatMap(readSignedAnswer(response, servicePublicKey), (answer) =>
    Result.flatMap(headOf(path, answer.head), (head) =>
      Result.mapBoth(decodeResponseBody(path, answer.body), {
        onFailure: (error) => new MalformedResponse({ detail: error.message }),
        onSuccess: (decoded) => ({ head, body: decoded }),
      }),
    ),
  )

export const readResponse = <P extends OperationPath>(
  path: P,
  response: RawResponse,
  servicePublicKey: PublicKey,
): Result.Result<ResponseBodyOf<P>, MerchantCallError> =>
  Result.map(readAnswer(path, response, servicePublicKey), (answer) => answer.body)
