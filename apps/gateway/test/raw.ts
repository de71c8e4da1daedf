/** Raw HTTP calls for the protocol tests: bodies and headers exactly as a test writes them. */
import { type PrivateKey, sign } from "@mizan/protocol"

export interface RawAnswer {
  readonly status: number
  readonly sign: string | null
  readonly text: string
  readonly json: { head: { applyStatus: string; code: string; msg?: string; traceCode?: string }; body?: unknown }
}

export const postRaw = async (
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
): Promise<RawAnswer> => {
  const response = await fetch(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  })
  const text = await response.text()
  let json: RawAnswer["json"]
  try {
    json = JSON.parse(text)
  } catch {
    json = { head: { applyStatus: "", code: "" } }
  }
  return { status: response.status, sign: response.headers.get("sign"), text, json }
}

/** A signed raw request from a merchant: the exact bytes given, signed with its key. */
export const postSigned = (
  url: string,
  body: string,
  partnerId: string,
  key: PrivateKey,
  headers: Record<string, string> = {},
) => postRaw(url, body, { "Partner-Id": partnerId, sign: sign(body, key), ...headers })
