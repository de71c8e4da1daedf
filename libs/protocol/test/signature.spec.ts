import { test } from "@fast-check/vitest"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  generateKeyPair,
  KeyError,
  parsePrivateKey,
  parsePublicKey,
  publicKeyOf,
  sign,
  signOffLoop,
  verify,
  verifyOffLoop,
} from "../src/index.ts"

const merchant = generateKeyPair()
const stranger = generateKeyPair()

const body =
  '{"requestTime":1700000000000,"bizContent":{"merchantOrderNo":"M1","totalAmount":{"amount":0.10,"currency":"AED"}}}'

describe("SHA256withRSA signatures over the raw body", () => {
  it("verifies a signature made with the matching private key", () => {
    expect(verify(body, sign(body, merchant.privateKey), merchant.publicKey)).toBe(true)
  })

  it("signs off the event loop to the same signature, byte for byte", async () => {
    const offLoop = await signOffLoop(body, merchant.privateKey)
    // PKCS#1 v1.5 is deterministic: the thread pool's signature is the one the event loop would make.
    expect(offLoop).toBe(sign(body, merchant.privateKey))
    expect(verify(body, offLoop, merchant.publicKey)).toBe(true)
  })

  it("signs text and its UTF-8 bytes alike", () => {
    const text = '{"subject":"قهوة"}'
    expect(sign(text, merchant.privateKey)).toBe(sign(Buffer.from(text, "utf8"), merchant.privateKey))
  })

  it("refuses a signature made with another merchant's key", () => {
    expect(verify(body, sign(body, stranger.privateKey), merchant.publicKey)).toBe(false)
  })

  test.prop([fc.nat({ max: body.length - 1 }), fc.integer({ min: 1, max: 255 })], { numRuns: 50 })(
    "refuses the body once any byte is flipped",
    (index, mask) => {
      const signature = sign(body, merchant.privateKey)
      const bytes = Buffer.from(body, "utf8")
      bytes[index] = (bytes[index] ?? 0) ^ mask
      expect(verify(bytes, signature, merchant.publicKey)).toBe(false)
    },
  )

  it("refuses the same JSON with its keys in another order, since the bytes are what is signed", () => {
    const reordered =
      '{"bizContent":{"merchantOrderNo":"M1","totalAmount":{"amount":0.10,"currency":"AED"}},"requestTime":1700000000000}'
    expect(JSON.parse(reordered)).toEqual(JSON.parse(body))
    expect(verify(reordered, sign(body, merchant.privateKey), merchant.publicKey)).toBe(false)
  })

  it("refuses the same JSON with 0.10 written as 0.1", () => {
    expect(verify(body.replace("0.10", "0.1"), sign(body, merchant.privateKey), merchant.publicKey)).toBe(false)
  })

  it.each([
    ["a missing signature", undefined],
    ["null", null],
    ["an empty string", ""],
    ["text that is not Base64", "not a signature!"],
    ["Base64 of the wrong length", Buffer.from("short").toString("base64")],
    ["Base64 without its padding", "QUJD"],
    [
      "URL-safe Base64",
      sign(body, merchant.privateKey).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "") + "-_",
    ],
  ])("answers false, without throwing, for %s", async (_what, signature) => {
    expect(verify(body, signature, merchant.publicKey)).toBe(false)
    await expect(verifyOffLoop(body, signature, merchant.publicKey)).resolves.toBe(false)
  })

  it("verifies off the event loop as on it: the signer's key holds, another's and a changed body do not", async () => {
    const signature = sign(body, merchant.privateKey)
    await expect(verifyOffLoop(body, signature, merchant.publicKey)).resolves.toBe(true)
    await expect(verifyOffLoop(body, ` ${signature}\n`, merchant.publicKey)).resolves.toBe(true)
    await expect(verifyOffLoop(body, signature, stranger.publicKey)).resolves.toBe(false)
    await expect(verifyOffLoop(body.replace("0.10", "0.1"), signature, merchant.publicKey)).resolves.toBe(false)
  })

  test.prop([fc.string({ maxLength: 400 })], { numRuns: 100 })("never throws on any signature text", (signature) => {
    expect(() => verify(body, signature, merchant.publicKey)).not.toThrow()
  })
})

describe("keys", () => {
  it("reads PKCS#8 and SPKI PEMs, and the bare Base64 bodies that portals hand out", () => {
    const bare = (pem: string) => pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "")
    const privateKey = parsePrivateKey(bare(merchant.privateKeyPem))
    const publicKey = parsePublicKey(bare(merchant.publicKeyPem))
    expect(verify(body, sign(body, privateKey), publicKey)).toBe(true)
  })

  it("derives the public key of a private key", () => {
    expect(verify(body, sign(body, merchant.privateKey), publicKeyOf(merchant.privateKey))).toBe(true)
  })

  it("refuses text that is not a key, without echoing it", () => {
    expect(() => parsePublicKey("-----BEGIN PUBLIC KEY-----\nsecret-looking\n-----END PUBLIC KEY-----")).toThrow(
      KeyError,
    )
    try {
      parsePrivateKey("garbage-that-must-not-be-echoed")
    } catch (error) {
      expect(String(error)).not.toContain("garbage-that-must-not-be-echoed")
    }
  })

  it("refuses a private key given where a public key belongs, rather than quietly taking its public half", () => {
    // A service key option holding the merchant's own private key would verify nothing the service signs.
    expect(() => parsePublicKey(merchant.privateKeyPem)).toThrow(
      "the public key PEM holds a private key: give the public key (-----BEGIN PUBLIC KEY-----)",
    )
  })

  it("refuses an RSA key below 2048 bits", async () => {
    const { generateKeyPairSync } = await import("node:crypto")
    const small = generateKeyPairSync("rsa", {
      modulusLength: 1024,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    })
    expect(() => parsePublicKey(small.publicKey)).toThrow(/at least 2048/)
  })

  it("refuses a key that is not RSA", async () => {
    const { generateKeyPairSync } = await import("node:crypto")
    const ed = generateKeyPairSync("ed25519", {
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    })
    expect(() => parsePrivateKey(ed.privateKey)).toThrow(/not an RSA key/)
  })
})
