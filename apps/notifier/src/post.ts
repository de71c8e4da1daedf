/**
 * One delivery attempt over HTTP: POST the signed body, wait for the whole
 * answer within the timeout, and say what it came to. Only node:http, so
 * that the connection can be pinned to the addresses the URL policy checked.
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import { type AttemptOutcome, answerStartMaxChars } from "@mizan/notification"
import { isAcknowledgement } from "@mizan/protocol"
import { Effect } from "effect"
import { type AllowedUrl, pinnedLookup } from "./urlPolicy.ts"

export interface PostLimits {
  /**
   * From the first byte sent to the last byte of the answer. Network time,
   * measured on the real clock: a test clock or the sandbox clock moves the
   * schedule, never a socket's patience.
   */
  readonly deliveryTimeoutMs: number
  /** An acknowledgement is a few bytes; a longer answer is not one, and is not read further. */
  readonly answerMaxBytes: number
}

/** Connection pools kept across attempts, so a merchant's endpoint is not dialled anew each time. */
export interface Agents {
  readonly http: HttpAgent
  readonly https: HttpsAgent
  readonly destroy: () => void
}

export const makeAgents = (socketsPerEndpointMax: number, socketsMax: number): Agents => {
  const options = { keepAlive: true, maxSockets: socketsPerEndpointMax, maxTotalSockets: socketsMax }
  const http = new HttpAgent(options)
  const https = new HttpsAgent(options)
  return {
    http,
    https,
    destroy: () => {
      http.destroy()
      https.destroy()
    },
  }
}

const errorCode = (error: unknown): string => {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined
  return typeof code === "string" ? code.slice(0, 64) : "ECONNECTION"
}

const isSuccessStatus = (statusCode: number): boolean => statusCode >= 200 && statusCode < 300

/** A code point that would break a log line or a terminal: C0 and C1 controls, DEL. */
const isControl = (codePoint: number): boolean => codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)

/**
 * The first characters of an answer, fit to keep: decoded leniently (a cut
 * multi-byte character becomes U+FFFD), controls as spaces, at most
 * `answerStartMaxChars`; nothing for an empty answer.
 */
export const answerStartOf = (chunks: ReadonlyArray<Buffer>): string | undefined => {
  const text = Buffer.concat(chunks)
    .subarray(0, answerStartMaxChars * 4)
    .toString("utf8")
  const characters = [...text].slice(0, answerStartMaxChars)
  const kept = characters.map((c) => (isControl(c.codePointAt(0) ?? 0) ? " " : c)).join("")
  return kept.trim() === "" ? undefined : kept
}

/** A failed attempt's outcome, with the start of what the merchant answered. */
const notAcknowledged = (statusCode: number, chunks: ReadonlyArray<Buffer>): AttemptOutcome => {
  const answerStart = answerStartOf(chunks)
  const _tag = isSuccessStatus(statusCode) ? "BadAnswer" : "HttpStatus"
  return answerStart === undefined ? { _tag, statusCode } : { _tag, statusCode, answerStart }
}

/** POSTs `body` with its `sign` header and classifies the answer. Never fails; interruption aborts the request. */
export const postNotification = (
  target: AllowedUrl,
  body: Uint8Array,
  signature: string,
  limits: PostLimits,
  agents: Agents,
): Effect.Effect<AttemptOutcome> =>
  Effect.callback<AttemptOutcome>((resume) => {
    let settled = false
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(Effect.succeed(outcome))
    }
    const secure = target.url.protocol === "https:"
    const request = (secure ? httpsRequest : httpRequest)(
      target.url,
      {
        method: "POST",
        agent: secure ? agents.https : agents.http,
        lookup: pinnedLookup(target.addresses),
        headers: { "content-type": "application/json", "content-length": body.byteLength, sign: signature },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0
        const chunks: Array<Buffer> = []
        let answerBytes = 0
        response.on("data", (chunk: Buffer) => {
          answerBytes += chunk.byteLength
          chunks.push(chunk)
          if (answerBytes > limits.answerMaxBytes) {
            settle(notAcknowledged(statusCode, chunks))
            request.destroy()
          }
        })
        response.on("end", () => {
          const answer = Buffer.concat(chunks).toString("utf8")
          settle(
            isAcknowledgement(statusCode, answer)
              ? { _tag: "Delivered", statusCode }
              : notAcknowledged(statusCode, chunks),
          )
        })
        response.on("error", (error) => settle({ _tag: "ConnectionFailed", code: errorCode(error) }))
      },
    )
    const timer = setTimeout(() => {
      settle({ _tag: "Timeout", afterMs: limits.deliveryTimeoutMs })
      request.destroy()
    }, limits.deliveryTimeoutMs)
    request.on("error", (error) => settle({ _tag: "ConnectionFailed", code: errorCode(error) }))
    request.end(body)
    return Effect.sync(() => {
      settled = true
      clearTimeout(timer)
      request.destroy()
    })
  })
