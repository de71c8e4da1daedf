/**
 * One signed call from the command line, as a merchant's system makes it:
 * the merchant API through libs/merchant-client, the sandbox API (whose
 * paths the client does not know) with the protocol's `sign` and `verify`.
 * Either way the answer is trusted only once its signature verifies with
 * the service's public key; the tool then prints it as it travelled.
 */
import { type MerchantCallError, makeMerchantClient, type OperationPath, type RequestOf } from "@mizan/merchant-client"
import {
  headerNames,
  isSuccessHead,
  jsonContentType,
  parseJson,
  parsePrivateKey,
  parsePublicKey,
  ResponseEnvelopeWire,
  readHeader,
  sign,
  stringifyJson,
  verify,
} from "@mizan/protocol"
import { Effect, Result, Schema } from "effect"
import { sandboxBasePath } from "../sandbox/index.ts"
import { CliError } from "./args.ts"

export interface Target {
  /** The gateway's address, without a base path: `http://127.0.0.1:8080`. */
  readonly baseUrl: string
  readonly partnerId: string
  readonly merchantPrivateKeyPem: string
  readonly servicePublicKeyPem: string
  /** Where the service's public key came from, to name it when an answer does not verify. */
  readonly servicePublicKeyFile: string
}

export interface Refusal {
  readonly applyStatus: string
  readonly code: string
  readonly msg?: string | undefined
  readonly traceCode?: string | undefined
}

/** A verified answer: its body as received, and the refusal in its head if it is one. */
export interface Answer {
  readonly text: string
  readonly refusal?: Refusal
}

const noAnswer = (target: Target, reason: string) =>
  new CliError(`no answer from ${target.baseUrl} (${reason}): is the gateway running? Start it with npm start`)

const notVerified = (target: Target) =>
  new CliError(
    `the answer's signature does not verify with ${target.servicePublicKeyFile}: is that the public key of the gateway at ${target.baseUrl}?`,
  )

const failureOf = (target: Target, error: MerchantCallError): CliError => {
  switch (error._tag) {
    case "TransportError":
      return noAnswer(target, error.message)
    case "ResponseSignatureError":
      return error.reason === "missing"
        ? new CliError(`the answer carries no signature: ${error.message}`)
        : notVerified(target)
    case "MalformedResponse":
      return new CliError(`the answer is signed but malformed: ${error.detail}`)
    case "ServiceRefused":
      return new CliError(error.message, 1)
  }
}

/** A merchant API operation through the merchant client (which signs, verifies and decodes). */
export const callMerchantApi = async (target: Target, path: OperationPath, bizContent: unknown): Promise<Answer> => {
  let received: string | undefined
  // The client verifies the bytes it reads; a copy of them is what the tool prints.
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    received = await response.clone().text()
    return response
  }
  const client = makeMerchantClient({
    baseUrl: target.baseUrl,
    partnerId: target.partnerId,
    merchantPrivateKeyPem: target.merchantPrivateKeyPem,
    servicePublicKeyPem: target.servicePublicKeyPem,
    fetch: recordingFetch,
  })
  const call = client.call as (
    path: OperationPath,
    bizContent?: RequestOf<OperationPath>,
  ) => ReturnType<typeof client.call>
  const result = await Effect.runPromise(Effect.result(call(path, bizContent as RequestOf<OperationPath> | undefined)))
  if (Result.isSuccess(result)) return { text: received ?? "" }
  const error = result.failure
  if (error._tag !== "ServiceRefused" || received === undefined) throw failureOf(target, error)
  return {
    text: received,
    refusal: { applyStatus: error.applyStatus, code: error.code, msg: error.msg, traceCode: error.traceCode },
  }
}

const decodeEnvelope = Schema.decodeUnknownResult(ResponseEnvelopeWire)

/** A sandbox helper, `POST /sgs/sandbox/<name>`, signed and verified like any other call. */
export const callSandbox = async (target: Target, name: string, bizContent: unknown): Promise<Answer> => {
  const body = stringifyJson(
    bizContent === undefined ? { requestTime: Date.now() } : { requestTime: Date.now(), bizContent },
  )
  let response: Response
  try {
    response = await fetch(`${target.baseUrl.replace(/\/+$/, "")}${sandboxBasePath}/${name}`, {
      method: "POST",
      headers: {
        [headerNames.partnerId]: target.partnerId,
        [headerNames.sign]: sign(body, parsePrivateKey(target.merchantPrivateKeyPem)),
        [headerNames.contentType]: jsonContentType,
      },
      body,
    })
  } catch (error) {
    throw noAnswer(target, ((error as Error).cause as { code?: string } | undefined)?.code ?? "request failed")
  }
  const bytes = new Uint8Array(await response.arrayBuffer())
  const signature = readHeader(response.headers, headerNames.sign)
  if (signature === undefined)
    throw new CliError(
      `the answer carries no signature (HTTP ${response.status}): is ${target.baseUrl} a Mizan gateway in sandbox mode?`,
    )
  if (!verify(bytes, signature, parsePublicKey(target.servicePublicKeyPem))) throw notVerified(target)
  const parsed = parseJson(bytes)
  const envelope = Result.isSuccess(parsed) ? decodeEnvelope(parsed.success) : undefined
  if (envelope === undefined || Result.isFailure(envelope)) throw new CliError("the answer is signed but malformed")
  const text = new TextDecoder().decode(bytes)
  const { head } = envelope.success
  return isSuccessHead(head)
    ? { text }
    : { text, refusal: { applyStatus: head.applyStatus, code: head.code, msg: head.msg, traceCode: head.traceCode } }
}
