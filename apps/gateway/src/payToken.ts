/**
 * The token in a pay page link (interactionParams.tokenUrl): names a
 * merchant's order without showing it. A link travels through chat apps,
 * browser histories and screenshots, so it must not reveal the merchant's
 * order number (often a guessable sequence, sometimes a customer number),
 * nor let a payer forge a link to another order.
 *
 * The order's names are sealed with AES-256-GCM under a key derived from
 * the service's private key: only this service can read or make a token,
 * and a changed byte fails GCM's tag. The nonce is derived from the names
 * (an HMAC under a second derived key), so one order always has one link:
 * the idempotent create answers the same tokenUrl every time. A repeated
 * nonce is only ever used for the very same plaintext, which reveals
 * nothing beyond "the same order", what the link already says.
 *
 * Tokens of the earlier format (the names in clear beside an HMAC) are no
 * longer read: their pages answer 404, as for any unknown link.
 */
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, type KeyObject } from "node:crypto"
import type { PrivateKey } from "@mizan/protocol"

export interface PaidOrderName {
  readonly merchantId: string
  readonly merchantOrderNo: string
}

/**
 * Key objects, made once: given raw bytes, node:crypto makes a key object
 * on every cipher and HMAC (about 7 µs each, two per create order).
 */
interface TokenKeys {
  readonly encryption: KeyObject
  readonly nonce: KeyObject
}

const nonceBytes = 12
const tagBytes = 16
const keyBytes = 32

const keysCache = new WeakMap<PrivateKey, TokenKeys>()

/** Two independent keys from the service key, by HKDF-SHA-256 with labels no other use of the key shares. */
const keysOf = (serviceKey: PrivateKey): TokenKeys => {
  const cached = keysCache.get(serviceKey)
  if (cached !== undefined) return cached
  const secret = serviceKey.export({ format: "der", type: "pkcs8" })
  const derive = (label: string) =>
    createSecretKey(Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), label, keyBytes)))
  const keys = { encryption: derive("mizan pay token: aes-256-gcm"), nonce: derive("mizan pay token: nonce") }
  keysCache.set(serviceKey, keys)
  return keys
}

export const payTokenFor = (name: PaidOrderName, serviceKey: PrivateKey): string => {
  const keys = keysOf(serviceKey)
  const plaintext = Buffer.from(JSON.stringify([name.merchantId, name.merchantOrderNo]), "utf8")
  const nonce = createHmac("sha256", keys.nonce).update(plaintext).digest().subarray(0, nonceBytes)
  const cipher = createCipheriv("aes-256-gcm", keys.encryption, nonce)
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString("base64url")
}

const isBase64Url = (text: string): boolean => /^[A-Za-z0-9_-]+$/.test(text)

/** The order a token names, or undefined for a token this service did not make (or an altered one). */
export const readPayToken = (token: string, serviceKey: PrivateKey): PaidOrderName | undefined => {
  if (!isBase64Url(token)) return undefined
  const bytes = Buffer.from(token, "base64url")
  if (bytes.length <= nonceBytes + tagBytes) return undefined
  const decipher = createDecipheriv("aes-256-gcm", keysOf(serviceKey).encryption, bytes.subarray(0, nonceBytes))
  decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes))
  try {
    const plaintext = Buffer.concat([
      decipher.update(bytes.subarray(nonceBytes, bytes.length - tagBytes)),
      decipher.final(),
    ])
    const [merchantId, merchantOrderNo] = JSON.parse(plaintext.toString("utf8")) as [unknown, unknown]
    return typeof merchantId === "string" && typeof merchantOrderNo === "string"
      ? { merchantId, merchantOrderNo }
      : undefined
  } catch {
    // GCM's tag did not verify: the token was altered or made with another key.
    return undefined
  }
}

/** The pay page's path for a token. */
export const payPagePath = (token: string): string => `/pay/${token}`
