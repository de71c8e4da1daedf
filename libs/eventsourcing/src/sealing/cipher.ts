/**
 * The cryptography of sealing, all of it from node:crypto (no
 * hand-written cryptography): AES-256-GCM with a fresh random 96-bit nonce
 * per sealed value, and keyed HMAC-SHA-256 for the ids that stand for
 * personal values.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from "node:crypto"

export const dataKeyBytes = 32
const nonceBytes = 12
const tagBytes = 16

export const newDataKey = (): Buffer => randomBytes(dataKeyBytes)

/**
 * A key as the cipher takes it. Node turns raw key bytes into a key object
 * on every cipher it makes (about 4 times the cost of the cipher itself on
 * a 300-byte value, tools/bench/README.md), so the sealer caches these.
 */
export type CipherKey = KeyObject

export const cipherKeyOf = (key: Uint8Array): CipherKey => createSecretKey(key)

/**
 * Nonces come from a pool of random bytes filled 4 KiB at a time: one call
 * into the system's random source per 341 nonces instead of one each. Each
 * nonce is still 96 fresh random bits, used once.
 */
const noncePoolBytes = 4_092
let noncePool = randomBytes(noncePoolBytes)
let nonceAt = 0

const freshNonce = (): Buffer => {
  if (nonceAt + nonceBytes > noncePool.length) {
    noncePool = randomBytes(noncePoolBytes)
    nonceAt = 0
  }
  const nonce = noncePool.subarray(nonceAt, nonceAt + nonceBytes)
  nonceAt += nonceBytes
  return nonce
}

/** `plaintext` sealed under `key`, bound to `associated` (what it may be read as): nonce, ciphertext, tag, in Base64. */
export const sealBytes = (key: Uint8Array | CipherKey, plaintext: Uint8Array, associated: string): string => {
  const nonce = freshNonce()
  const cipher = createCipheriv("aes-256-gcm", key, nonce)
  cipher.setAAD(Buffer.from(associated, "utf8"))
  const body = cipher.update(plaintext)
  const final = cipher.final()
  return Buffer.concat([nonce, body, final, cipher.getAuthTag()]).toString("base64")
}

/** The plaintext of `box`, or undefined when it does not open: another key, altered bytes, or other associated data. */
export const openBytes = (key: Uint8Array | CipherKey, box: string, associated: string): Buffer | undefined => {
  const bytes = Buffer.from(box, "base64")
  if (bytes.length < nonceBytes + tagBytes) return undefined
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, nonceBytes))
    decipher.setAAD(Buffer.from(associated, "utf8"))
    decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes))
    return Buffer.concat([decipher.update(bytes.subarray(nonceBytes, bytes.length - tagBytes)), decipher.final()])
  } catch {
    return undefined
  }
}

/** A keyed HMAC-SHA-256 in lower-case hex: equal values give equal ids, and nobody without the secret can test a guess. */
export const keyedDigest = (secret: Uint8Array | CipherKey, domain: string, value: string): string =>
  createHmac("sha256", secret).update(`${domain}\u0000${value}`, "utf8").digest("hex")

/**
 * The plain SHA-256 hex of `value`, as the edge digests a card number or an
 * identity: only ever the input of a keyed id (SealedSubject.identifiedInClear),
 * never stored.
 */
export const unkeyedDigestHex = (value: string): string => createHash("sha256").update(value, "utf8").digest("hex")
