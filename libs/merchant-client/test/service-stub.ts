/**
 * A tiny stand-in for the service on 127.0.0.1: it checks each request's
 * signature with the merchant's public key, remembers what it received, and
 * answers in the way the test asks (a good signed response, an unsigned one,
 * a tampered one, one signed with the wrong key, a business error).
 */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import {
  encodeResponseBody,
  failureResponse,
  type GeneratedKeyPair,
  generateKeyPair,
  type OperationPath,
  operations,
  type ResponseBodyOf,
  type ResponseEnvelope,
  sign,
  signatureErrorResponse,
  stringifyJson,
  successResponse,
  verify,
  withHeadSuccess,
} from "@mizan/protocol"

export type Answer =
  /** As the service answers: with `head.success` where the operation's answers carry it (sandbox helpers name no path). */
  | { readonly kind: "success"; readonly body: unknown; readonly path?: OperationPath }
  | { readonly kind: "envelope"; readonly envelope: ResponseEnvelope }
  | { readonly kind: "unsigned" }
  | { readonly kind: "tampered"; readonly body: unknown }
  | { readonly kind: "foreign-signature"; readonly body: unknown }
  | { readonly kind: "http-error"; readonly status: number }
  | { readonly kind: "raw"; readonly text: string }
  | { readonly kind: "silent" }

export interface ReceivedRequest {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly text: string
  readonly signatureValid: boolean
}

export const successAnswer = <P extends OperationPath>(path: P, body: ResponseBodyOf<P>): Answer => ({
  kind: "success",
  body: encodeResponseBody(path, body),
  path,
})

export interface ServiceStub {
  readonly baseUrl: string
  readonly service: GeneratedKeyPair
  readonly received: Array<ReceivedRequest>
  answer: Answer
  readonly close: () => Promise<void>
}

export const startServiceStub = async (merchant: GeneratedKeyPair): Promise<ServiceStub> => {
  const service = generateKeyPair()
  const stranger = generateKeyPair()
  const received: Array<ReceivedRequest> = []
  const stub = { answer: { kind: "unsigned" } as Answer }

  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const bytes = Buffer.concat(chunks)
      const signatureValid = verify(bytes, request.headers.sign as string | undefined, merchant.publicKey)
      received.push({ path: request.url ?? "", headers: request.headers, text: bytes.toString("utf8"), signatureValid })
      const send = (status: number, text: string, signature?: string) => {
        response.writeHead(status, {
          "content-type": "application/json",
          ...(signature === undefined ? {} : { sign: signature }),
        })
        response.end(text)
      }
      const answer: Answer = signatureValid ? stub.answer : { kind: "envelope", envelope: signatureErrorResponse() }
      switch (answer.kind) {
        case "success": {
          const envelope = successResponse(answer.body)
          const headSuccess = answer.path !== undefined && operations[answer.path].headSuccess
          const text = stringifyJson(headSuccess ? withHeadSuccess(envelope) : envelope)
          return send(200, text, sign(text, service.privateKey))
        }
        case "envelope": {
          const text = stringifyJson(answer.envelope)
          return send(200, text, sign(text, service.privateKey))
        }
        case "unsigned":
          return send(200, stringifyJson(failureResponse("SYSTEM_ERROR")))
        case "tampered": {
          const text = stringifyJson(successResponse(answer.body))
          return send(200, text.replace('"amount":100.5', '"amount":1005'), sign(text, service.privateKey))
        }
        case "foreign-signature": {
          const text = stringifyJson(successResponse(answer.body))
          return send(200, text, sign(text, stranger.privateKey))
        }
        case "http-error":
          return send(answer.status, "<html>bad gateway</html>")
        case "raw":
          return send(200, answer.text, sign(answer.text, service.privateKey))
        case "silent":
          return // never answers; close() drops the connection
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo

  return Object.assign(stub, {
    baseUrl: `http://127.0.0.1:${port}`,
    service,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  })
}
