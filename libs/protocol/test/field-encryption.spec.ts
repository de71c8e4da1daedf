import { createHash } from "node:crypto"
import { test } from "@fast-check/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  decryptField,
  digestOfSensitive,
  encryptField,
  FieldDecryptionError,
  generateKeyPair,
  revealSensitive,
  sha256Hex,
} from "../src/index.ts"

const service = generateKeyPair()
const stranger = generateKeyPair()

const reasonOf = (result: Result.Result<unknown, FieldDecryptionError>) =>
  Result.isFailure(result) ? result.failure.reason : "ok"

describe("encrypted fields: RSA PKCS#1 v1.5 in chunks of keyBytes - 11", () => {
  it("round-trips a short value as one 344-character block", () => {
    const cipher = encryptField("4111111111111111", service.publicKey)
    expect(cipher).toHaveLength(344)
    expect(Result.getOrThrow(decryptField(cipher, service.privateKey))).toBe("4111111111111111")
  })

  it("round-trips a value over 245 UTF-8 bytes with multibyte characters across blocks", () => {
    // 100 Arabic letters are 200 bytes; with the emoji and Latin text the value spans 2 blocks,
    // and a multibyte character is cut between them.
    const plain = `${"ع".repeat(100)}😀 ${"name-".repeat(20)}`
    expect(Buffer.byteLength(plain, "utf8")).toBeGreaterThan(245)
    const cipher = encryptField(plain, service.publicKey)
    // Two 256-byte blocks, concatenated, then Base64: 684 characters.
    expect(Buffer.from(cipher, "base64")).toHaveLength(2 * 256)
    expect(cipher).toHaveLength(684)
    expect(Result.getOrThrow(decryptField(cipher, service.privateKey))).toBe(plain)
  })

  test.prop([fc.string({ unit: "grapheme", maxLength: 300 })], { numRuns: 20 })("round-trips any text", (plain) => {
    expect(Result.getOrThrow(decryptField(encryptField(plain, service.publicKey), service.privateKey))).toBe(plain)
  })

  it("also reads blocks that were Base64-encoded one by one and joined (344 characters each)", () => {
    const plain = "a".repeat(300)
    const blocks = Buffer.from(encryptField(plain, service.publicKey), "base64")
    const joined = blocks.subarray(0, 256).toString("base64") + blocks.subarray(256).toString("base64")
    expect(joined).toHaveLength(688)
    expect(Result.getOrThrow(decryptField(joined, service.privateKey))).toBe(plain)
  })

  it("accepts Base64 wrapped over lines, as MIME encoders write it", () => {
    const cipher = encryptField("AE070331234567890123456", service.publicKey)
    const wrapped = cipher.match(/.{1,76}/g)?.join("\r\n") ?? cipher
    expect(Result.getOrThrow(decryptField(wrapped, service.privateKey))).toBe("AE070331234567890123456")
  })

  it.each([
    ["text that is not Base64", "4111 1111 1111 1111!", "not-base64"],
    ["a value that is not whole blocks", Buffer.from("abc").toString("base64"), "not-whole-blocks"],
    ["an empty value", "", "not-whole-blocks"],
  ])("refuses %s with a typed reason", (_what, cipher, reason) => {
    expect(reasonOf(decryptField(cipher, service.privateKey))).toBe(reason)
  })

  it("refuses a value encrypted for another key, without echoing it", () => {
    // Implicit rejection turns a foreign block into random bytes; across many bytes they are not UTF-8.
    const cipher = encryptField("x".repeat(600), stranger.publicKey)
    const result = decryptField(cipher, service.privateKey)
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) {
      expect(result.failure).toBeInstanceOf(FieldDecryptionError)
      expect(result.failure.message).not.toContain(cipher.slice(0, 20))
    }
  })

  it("refuses a clear value longer than the field allows", () => {
    const cipher = encryptField("4".repeat(51), service.publicKey)
    expect(reasonOf(revealSensitive(cipher, service.privateKey, { clearMaxChars: 50 }))).toBe("too-long")
    expect(Result.getOrThrow(revealSensitive(cipher, service.privateKey, { clearMaxChars: 51 }))).toBe("4".repeat(51))
  })
})

describe("digest of a sensitive value", () => {
  const clear = "971500000001"
  const digest = createHash("sha256").update(clear).digest("hex")

  it("keeps the SHA-256 hex form as it is", () => {
    expect(Result.getOrThrow(digestOfSensitive(digest, service.privateKey))).toBe(digest)
  })

  it("decrypts the encrypted form and digests the clear value", () => {
    const cipher = encryptField(clear, service.publicKey)
    expect(Result.getOrThrow(digestOfSensitive(cipher, service.privateKey))).toBe(digest)
    expect(sha256Hex(clear)).toBe(digest)
  })

  it("gives the same digest for both forms of one value", () => {
    const fromCipher = digestOfSensitive(encryptField(clear, service.publicKey), service.privateKey)
    expect(fromCipher).toEqual(digestOfSensitive(sha256Hex(clear), service.privateKey))
  })

  it("refuses the hex form for a field that must arrive encrypted", () => {
    const rule = { clearMaxChars: 50, digestAccepted: false }
    expect(reasonOf(digestOfSensitive(digest, service.privateKey, rule))).toBe("digest-not-accepted")
  })

  it("treats upper-case hex as neither form", () => {
    expect(Result.isFailure(digestOfSensitive(digest.toUpperCase(), service.privateKey))).toBe(true)
  })
})
