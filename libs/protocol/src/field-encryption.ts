/**
 * Encrypted request fields (docs/api.md#encrypted-fields):
 * RSA PKCS#1 v1.5 with the service's public key over the UTF-8 plaintext cut
 * into chunks of `keyBytes - 11` bytes, the ciphertext chunks concatenated and
 * Base64-encoded (344 characters per chunk for a 2048-bit key). Where the spec
 * recommends SHA-256 (identities, names, eid) clients may send the 64-character
 * lower-case hex digest instead; either way only the digest goes further.
 *
 * Decryption needs Node 24: OpenSSL 3 refuses PKCS#1 v1.5 decryption unless it
 * may use implicit rejection, which Node 20 does not allow. Implicit rejection
 * also means a tampered chunk decrypts to random bytes rather than failing, so
 * a wrong ciphertext is caught here only when those bytes are not UTF-8; the
 * field's own rules (digits of a card number, months 1 to 12) catch the rest.
 */
import { constants, createHash, privateDecrypt, publicEncrypt } from "node:crypto"
import { isSha256Hex, type Sha256Hex } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { modulusBytes, type PrivateKey, type PublicKey } from "./keys.ts"
import { isStandardBase64 } from "./signature.ts"

/** PKCS#1 v1.5 padding takes 11 bytes of every block. */
const pkcs1PaddingBytes = 11

const utf8 = new TextEncoder()
const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

/** The lower-case hex SHA-256 of a value's UTF-8 bytes: the only form a sensitive value is kept in. */
export const sha256Hex = (value: string): Sha256Hex =>
  createHash("sha256").update(value, "utf8").digest("hex") as Sha256Hex

/** Encrypts a field for the service, as a merchant client does. */
export const encryptField = (plain: string, publicKey: PublicKey): string => {
  const bytes = utf8.encode(plain)
  const chunkBytes = modulusBytes(publicKey) - pkcs1PaddingBytes
  const chunks: Array<Buffer> = []
  // do-while: an empty value still travels as one block, which decrypts to "".
  let start = 0
  do {
    const chunk = bytes.subarray(start, start + chunkBytes)
    chunks.push(publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, chunk))
    start += chunkBytes
  } while (start < bytes.length)
  return Buffer.concat(chunks).toString("base64")
}

/** Why an encrypted field could not be opened. Never carries the ciphertext or any clear text. */
export const FieldDecryptionReason = Schema.Literals([
  "not-base64",
  "not-whole-blocks",
  "undecryptable",
  "not-utf8",
  "too-long",
  "digest-not-accepted",
])
export type FieldDecryptionReason = typeof FieldDecryptionReason.Type

const problems: Record<FieldDecryptionReason, string> = {
  "not-base64": "must be Base64 of a ciphertext made with the service's public key",
  "not-whole-blocks": "must be whole RSA blocks of the service's key (344 Base64 characters per block for 2048 bits)",
  undecryptable: "could not be decrypted with the service's private key",
  "not-utf8": "did not decrypt to UTF-8 text: was it encrypted with the service's public key?",
  "too-long": "is longer than the field allows once decrypted",
  "digest-not-accepted": "must be encrypted with the service's public key; a digest cannot be used for this field",
}

export class FieldDecryptionError extends Schema.TaggedError<FieldDecryptionError>()("FieldDecryptionError", {
  reason: FieldDecryptionReason,
}) {
  /** A phrase to follow the field path in `head.msg`: "bizContent.cardNumber could not be ...". */
  get problem(): string {
    return problems[this.reason]
  }
  override get message(): string {
    return `encrypted field ${this.problem}`
  }
}

const failWith = (reason: FieldDecryptionReason) => Result.fail(new FieldDecryptionError({ reason }))

/**
 * The ciphertext bytes of a field. The conventions Base64-encode the
 * concatenated blocks (684 characters for two 2048-bit blocks); some clients
 * encode each block on its own and join the texts (344 characters per block,
 * each padded), which is read too.
 */
const ciphertextOf = (text: string, blockBytes: number): Buffer | undefined => {
  if (isStandardBase64(text)) return Buffer.from(text, "base64")
  const blockChars = 4 * Math.ceil(blockBytes / 3)
  if (text.length % blockChars !== 0) return undefined
  const blocks: Array<Buffer> = []
  for (let start = 0; start < text.length; start += blockChars) {
    const block = text.slice(start, start + blockChars)
    if (!isStandardBase64(block)) return undefined
    blocks.push(Buffer.from(block, "base64"))
  }
  return Buffer.concat(blocks)
}

/** Opens an encrypted field with the service's private key: the clear value, to use and drop. */
export const decryptField = (cipher: string, privateKey: PrivateKey): Result.Result<string, FieldDecryptionError> => {
  // MIME Base64 encoders wrap lines; the wrapping is not part of the value.
  const text = cipher.replace(/\s+/g, "")
  const blockBytes = modulusBytes(privateKey)
  const bytes = ciphertextOf(text, blockBytes)
  if (bytes === undefined) return failWith("not-base64")
  if (bytes.length === 0 || bytes.length % blockBytes !== 0) return failWith("not-whole-blocks")
  const plain: Array<Buffer> = []
  for (let start = 0; start < bytes.length; start += blockBytes) {
    try {
      plain.push(
        privateDecrypt(
          { key: privateKey, padding: constants.RSA_PKCS1_PADDING },
          bytes.subarray(start, start + blockBytes),
        ),
      )
    } catch {
      return failWith("undecryptable")
    }
  }
  try {
    return Result.succeed(strictUtf8.decode(Buffer.concat(plain)))
  } catch {
    return failWith("not-utf8")
  }
}

/**
 * How the spec lets a sensitive field travel: its clear length (the spec's
 * String(n) counts the clear value, since a ciphertext of any value is at
 * least 344 characters) and whether the SHA-256 hex form may stand in for it.
 */
export interface SensitiveFieldRule {
  readonly clearMaxChars: number
  readonly digestAccepted: boolean
}

/**
 * The clear value of an encrypted field, checked against its clear length.
 * Bank card fields need this at the edge (card digits and last 4, expiry,
 * legal names); the caller keeps only what the spec lets it keep.
 */
export const revealSensitive = (
  value: string,
  privateKey: PrivateKey,
  rule: Pick<SensitiveFieldRule, "clearMaxChars">,
): Result.Result<string, FieldDecryptionError> =>
  Result.flatMap(decryptField(value, privateKey), (clear) =>
    clear.length > rule.clearMaxChars ? failWith("too-long") : Result.succeed(clear),
  )

/**
 * The digest a sensitive field is kept as: a 64-character lower-case hex
 * SHA-256 is kept as it is (when the rule accepts digests, which is the
 * default); anything else is decrypted and its clear value digested.
 */
export const digestOfSensitive = (
  value: string,
  privateKey: PrivateKey,
  rule: SensitiveFieldRule = { clearMaxChars: Number.MAX_SAFE_INTEGER, digestAccepted: true },
): Result.Result<Sha256Hex, FieldDecryptionError> => {
  if (isSha256Hex(value)) return rule.digestAccepted ? Result.succeed(value) : failWith("digest-not-accepted")
  return Result.map(revealSensitive(value, privateKey, rule), sha256Hex)
}
