/**
 * One signed call from the command line, as a merchant's system makes it:
 * the merchant API and the sandbox API both through libs/merchant-client.
 * Either way the answer is trusted only once its signature verifies with
 * the service's public key; the tool then prints it as it travelled.
 */
import { type MerchantCallError, makeMerchantClient, type OperationPath, type RequestOf } from "@mizan/merchant-client"
import { Effect, Result } from "effect"
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

/** The merchant client of the target, with a copy of the last answer's bytes: the tool prints them as they travelled. */
const recordingClient = (target: Target) => {
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
  return { client, received: () => received }
}

/** Runs one call of `recording`'s client: its answer as received, with the refusal when the service refused. */
const answerOf = async (
  target: Target,
  recording: ReturnType<typeof recordingClient>,
  call: Effect.Effect<unknown, MerchantCallError>,
): Promise<Answer> => {
  const result = await Effect.runPromise(Effect.result(call))
  const received = recording.received()
  if (Result.isSuccess(result)) return { text: received ?? "" }
  const error = result.failure
  if (error._tag !== "ServiceRefused" || received === undefined) throw failureOf(target, error)
  return {
    text: received,
    refusal: { applyStatus: error.applyStatus, code: error.code, msg: error.msg, traceCode: error.traceCode },
  }
}

/** A merchant API operation through the merchant client (which signs, verifies and decodes). */
export const callMerchantApi = (target: Target, path: OperationPath, bizContent: unknown): Promise<Answer> => {
  const recording = recordingClient(target)
  const call = recording.client.call as (
    path: OperationPath,
    bizContent?: RequestOf<OperationPath>,
  ) => Effect.Effect<unknown, MerchantCallError>
  return answerOf(target, recording, call(path, bizContent as RequestOf<OperationPath> | undefined))
}

/** A sandbox helper, `POST /sgs/sandbox/<name>`, through the merchant client (which signs and verifies). */
export const callSandbox = (target: Target, name: string, bizContent: unknown): Promise<Answer> => {
  const recording = recordingClient(target)
  return answerOf(target, recording, recording.client.sandbox(name, bizContent))
}
