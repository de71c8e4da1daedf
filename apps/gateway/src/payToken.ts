/**
 * The token in a pay page link (interactionParams.tokenUrl): names a
 * merchant's order without exposing a guessable number. It is the order's
 * names, sealed with an HMAC whose key is derived from the service's private
 * key, so a payer cannot forge a link to another order.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import type { PrivateKey } from "@mizan/protocol"

export interface PaidOrderName {
  readonly merchantId: string
  readonly merchantOrderNo: string
}

const hmacKeyCache = new WeakMap<PrivateKey, Buffer>()

const hmacKeyOf = (serviceKey: PrivateKey): Buffer => {
  const cached = hmacKeyCache.get(serviceKey)
  if (cached !== undefined) return cached
  const key = createHash("sha256")
    .update("mizan pay token\u0000")
    .update(serviceKey.export({ format: "der", type: "pkcs8" }))
    .digest()
  hmacKeyCache.set(serviceKey, key)
  return key
}

const seal = (payload: string, serviceKey: PrivateKey): string =>
  createHmac("sha256", hmacKeyOf(serviceKey)).update(payload).digest("base64url")

export const payTokenFor = (name: PaidOrderName, serviceKey: PrivateKey): string => {
  const payload = Buffer.from(JSON.stringify([name.merchantId, name.merchantOrderNo])).toString("base64url")
  return `${payload}.${seal(payload, serviceKey)}`
}

/** The order a token names, or undefined for a token this service did not make. */
export const readPayToken = (token: string, serviceKey: PrivateKey): PaidOrderName | undefined => {
  const [payload, mac, ...rest] = token.split(".")
  if (payload === undefined || mac === undefined || rest.length > 0) return undefined
  const expected = Buffer.from(seal(payload, serviceKey))
  const given = Buffer.from(mac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
  try {
    const [merchantId, merchantOrderNo] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [
      string,
      string,
    ]
    return typeof merchantId === "string" && typeof merchantOrderNo === "string"
      ? { merchantId, merchantOrderNo }
      : undefined
  } catch {
    return undefined
  }
}

/** The pay page's path for a token. */
export const payPagePath = (token: string): string => `/pay/${token}`
