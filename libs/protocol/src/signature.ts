/**
 * Request, response and notification signatures (docs/api.md#signatures): SHA256withRSA, that is RSA PKCS#1 v1.5 over SHA-256, computed
 * over the exact raw bytes of the HTTP body and sent as standard Base64 in the
 * `sign` header. Nothing is sorted or re-serialised: real clients write keys
 * in any order, `0.10`, `\/` and empty objects, so only the bytes received
 * can be checked.
 */
import { sign as rsaSign, verify as rsaVerify } from "node:crypto"
import type { PrivateKey, PublicKey } from "./keys.ts"

/** A body as bytes, or as text that is sent as its UTF-8 bytes. */
export type BodyBytes = Uint8Array | string

const bytesOf = (body: BodyBytes): Uint8Array => (typeof body === "string" ? Buffer.from(body, "utf8") : body)

/** Standard Base64 (RFC 4648 section 4) with its padding; nothing else is a signature. */
const base64Text = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export const isStandardBase64 = (text: string): boolean => text.length > 0 && base64Text.test(text)

/** The `sign` header value for a body. */
export const sign = (body: BodyBytes, privateKey: PrivateKey): string =>
  rsaSign("sha256", bytesOf(body), privateKey).toString("base64")

/**
 * `sign`, off the event loop: given a callback, node:crypto signs in libuv's
 * thread pool (`UV_THREADPOOL_SIZE` threads, 4 by default), so a server keeps
 * reading, verifying and deciding other requests while an RSA signature,
 * the largest piece of a request's CPU, is computed beside it.
 */
export const signOffLoop = (body: BodyBytes, privateKey: PrivateKey): Promise<string> =>
  new Promise((resolve, reject) =>
    rsaSign("sha256", bytesOf(body), privateKey, (error, signature) =>
      error === null ? resolve(signature.toString("base64")) : reject(error),
    ),
  )

/** The signature's bytes, when it is standard Base64 (surrounding blanks trimmed); undefined for anything else. */
const signatureBytesOf = (signature: string | undefined | null): Buffer | undefined => {
  if (typeof signature !== "string") return undefined
  const text = signature.trim()
  return isStandardBase64(text) ? Buffer.from(text, "base64") : undefined
}

/**
 * Whether `signature` is a valid signature of the body under `publicKey`.
 * Never throws: a missing, malformed or foreign signature answers false.
 */
export const verify = (body: BodyBytes, signature: string | undefined | null, publicKey: PublicKey): boolean => {
  const signatureBytes = signatureBytesOf(signature)
  if (signatureBytes === undefined) return false
  try {
    return rsaVerify("sha256", bytesOf(body), publicKey, signatureBytes)
  } catch {
    return false
  }
}

/**
 * `verify`, off the event loop, as `signOffLoop` signs: the check of a
 * request's signature (about 17 µs of RSA on a core) runs in libuv's thread
 * pool, the loop paying only to hand it over. Never rejects: a missing,
 * malformed or foreign signature answers false.
 */
export const verifyOffLoop = (
  body: BodyBytes,
  signature: string | undefined | null,
  publicKey: PublicKey,
): Promise<boolean> => {
  const signatureBytes = signatureBytesOf(signature)
  if (signatureBytes === undefined) return Promise.resolve(false)
  return new Promise((resolve) => {
    try {
      rsaVerify("sha256", bytesOf(body), publicKey, signatureBytes, (error, valid) => resolve(error === null && valid))
    } catch {
      resolve(false)
    }
  })
}
