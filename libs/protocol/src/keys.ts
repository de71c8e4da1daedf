/**
 * RSA keys of the protocol (docs/api.md#signatures): private keys
 * as PKCS#8 PEM, public keys as X.509 SubjectPublicKeyInfo PEM, at least 2048
 * bits. A key is parsed once into a `KeyObject` when a merchant is loaded or a
 * client is made; signing and verifying never parse PEM again.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto"
import { Schema } from "effect"

/** The spec's floor: "keys of at least 2048 bits". */
export const rsaModulusBitsMin = 2048
/** What `generateKeyPair` makes: the floor, which is also what merchants use. */
export const generatedModulusBits = 2048

declare const privateKeyBrand: unique symbol
declare const publicKeyBrand: unique symbol

/** A parsed RSA private key: signs responses and notifications, decrypts encrypted fields. */
export type PrivateKey = KeyObject & { readonly [privateKeyBrand]: true }
/** A parsed RSA public key: verifies signatures, encrypts fields. */
export type PublicKey = KeyObject & { readonly [publicKeyBrand]: true }

/** A PEM that is not an RSA key of the expected kind and size. Never carries the PEM itself. */
export class KeyError extends Schema.TaggedError<KeyError>()("KeyError", { reason: Schema.String }) {
  override get message(): string {
    return this.reason
  }
}

/**
 * Keys pasted from a portal often arrive as the bare Base64 body without the
 * PEM armour (that is how the official SDKs' samples hold them); armour them.
 */
const armoured = (text: string, label: "PRIVATE KEY" | "PUBLIC KEY"): string => {
  const trimmed = text.trim()
  if (trimmed.startsWith("-----BEGIN")) return trimmed
  const body = trimmed.replace(/\s+/g, "")
  const lines = body.match(/.{1,64}/g) ?? []
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`
}

const checkedRsa = (key: KeyObject, kind: string): KeyObject => {
  if (key.asymmetricKeyType !== "rsa") throw new KeyError({ reason: `the ${kind} key is not an RSA key` })
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0
  if (bits < rsaModulusBitsMin)
    throw new KeyError({ reason: `the ${kind} key has ${bits} bits; at least ${rsaModulusBitsMin} are required` })
  return key
}

const parse = <K>(kind: string, make: () => KeyObject): K => {
  let key: KeyObject
  try {
    key = make()
  } catch {
    throw new KeyError({ reason: `the ${kind} key is not a readable PEM` })
  }
  return checkedRsa(key, kind) as K
}

/** Parses a PKCS#8 private key PEM (PKCS#1 `RSA PRIVATE KEY` is accepted too). Throws `KeyError`. */
export const parsePrivateKey = (pem: string): PrivateKey =>
  parse("private", () => createPrivateKey({ key: armoured(pem, "PRIVATE KEY"), format: "pem" }))

/**
 * Parses an SPKI public key PEM (PKCS#1 `RSA PUBLIC KEY` is accepted too).
 * Throws `KeyError`, also for a private key PEM: Node would take its public
 * half, so a merchant's own private key pasted where the service's public
 * key belongs would be taken, kept in the wrong place, and verify nothing.
 */
export const parsePublicKey = (pem: string): PublicKey => {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem))
    throw new KeyError({
      reason: "the public key PEM holds a private key: give the public key (-----BEGIN PUBLIC KEY-----)",
    })
  return parse("public", () => createPublicKey({ key: armoured(pem, "PUBLIC KEY"), format: "pem" }))
}

/** The public half of a private key, for a service that only keeps its private PEM. */
export const publicKeyOf = (privateKey: PrivateKey): PublicKey => createPublicKey(privateKey) as PublicKey

/** Bytes of the RSA modulus: 256 for a 2048-bit key. */
export const modulusBytes = (key: PrivateKey | PublicKey): number =>
  Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 0) / 8)

export interface GeneratedKeyPair {
  readonly privateKeyPem: string
  readonly publicKeyPem: string
  readonly privateKey: PrivateKey
  readonly publicKey: PublicKey
}

/** A fresh RSA-2048 key pair, as PEM (PKCS#8 / SPKI) and parsed, for tools, sandboxes and tests. */
export const generateKeyPair = (): GeneratedKeyPair => {
  const pair = generateKeyPairSync("rsa", {
    modulusLength: generatedModulusBits,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  })
  return {
    privateKeyPem: pair.privateKey,
    publicKeyPem: pair.publicKey,
    privateKey: parsePrivateKey(pair.privateKey),
    publicKey: parsePublicKey(pair.publicKey),
  }
}
