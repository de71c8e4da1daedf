/**
 * Requests written byte for byte as the official PayBy PHP SDK (v1.0.1)
 * writes them, for the tests that prove the gateway takes that SDK
 * unchanged: `json_encode` without flags (`\/`, `\uXXXX`), `requestTime` as
 * an RFC 3339 date-time with whole seconds and the sender's offset, the
 * caller's `partnerId` repeated in the body, every path under `/acquire2`,
 * and the SDK's headers (no `api-version`).
 */
import { sign } from "@mizan/protocol"
import { merchantKeys } from "./harness.ts"
import type { RawAnswer } from "./raw.ts"

/** PHP's `json_encode($value)` with no flags: slashes escaped, every non-ASCII UTF-16 unit as `\uxxxx`. */
export const phpJsonEncode = (value: unknown): string =>
  JSON.stringify(value)
    .replaceAll("/", "\\/")
    .replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`)

const two = (n: number) => String(n).padStart(2, "0")

/** PHP's `date("Y-m-d\TH:i:s.000P")` in a zone `offsetMinutes` east of UTC (Dubai: +04:00). */
export const phpRequestTime = (ms: number, offsetMinutes = 240): string => {
  const local = new Date(ms + offsetMinutes * 60_000)
  const sign = offsetMinutes < 0 ? "-" : "+"
  const offset = Math.abs(offsetMinutes)
  return (
    `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}` +
    `T${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}.000` +
    `${sign}${two(Math.floor(offset / 60))}:${two(offset % 60)}`
  )
}

/** The path the SDK posts an operation to: it prefixes every path with `/acquire2`. */
export const phpSdkPath = (operationPath: string): string =>
  operationPath.startsWith("/acquire2/") ? operationPath : `/acquire2${operationPath}`

export interface PhpCall {
  readonly baseUrl: string
  readonly partnerId: string
  /** The operation's spec path, e.g. `/transfer/placeTransferOrder`. */
  readonly operationPath: string
  /** `null` for operations without parameters, as the SDK sends it. */
  readonly bizContent: unknown
  /** Milliseconds; defaults to now. */
  readonly at?: number
}

/** The body the SDK writes for a call. */
export const phpBody = ({ partnerId, bizContent, at = Date.now() }: Omit<PhpCall, "baseUrl" | "operationPath">) =>
  phpJsonEncode({ requestTime: phpRequestTime(at), bizContent, partnerId })

/** Posts a call as the SDK does, signed over the exact bytes it writes. */
export const phpPost = async (call: PhpCall, body = phpBody(call)): Promise<RawAnswer> => {
  const response = await fetch(`${call.baseUrl}/sgs/api${phpSdkPath(call.operationPath)}`, {
    method: "POST",
    body,
    headers: {
      "Partner-Id": call.partnerId,
      "Content-type": "application/json;charset=UTF-8",
      "Content-Language": "en",
      "User-Agent": "PayBy-PHP-SDK/1.0.1",
      sign: sign(body, merchantKeys(call.partnerId).privateKey),
    },
  })
  const text = await response.text()
  return { status: response.status, sign: response.headers.get("sign"), text, json: JSON.parse(text) }
}
