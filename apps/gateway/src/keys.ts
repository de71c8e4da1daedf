/**
 * The service's key pair: signs every response and notification, decrypts
 * encrypted request fields. In sandbox mode a missing pair is generated on
 * first start and its public key written where the README says
 * (`data/service-public.pem` by default), for merchants to verify with.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { generateKeyPair, type PrivateKey, type PublicKey, parsePrivateKey, parsePublicKey } from "@mizan/protocol"
import { ConfigError } from "./config.ts"

export interface ServiceKeyFiles {
  readonly privateKeyFile: string
  readonly publicKeyFile: string
}

export interface ServiceKeys {
  readonly privateKey: PrivateKey
  readonly publicKey: PublicKey
  /** Whether this start made the pair. */
  readonly generated: boolean
}

export const loadServiceKeys = (files: ServiceKeyFiles, mode: "sandbox" | "production"): ServiceKeys => {
  const havePrivate = existsSync(files.privateKeyFile)
  if (!havePrivate) {
    if (mode === "production")
      throw new ConfigError(
        `the service's private key ${files.privateKeyFile} does not exist (only sandbox mode makes one)`,
      )
    const pair = generateKeyPair()
    mkdirSync(dirname(files.privateKeyFile), { recursive: true })
    mkdirSync(dirname(files.publicKeyFile), { recursive: true })
    writeFileSync(files.privateKeyFile, pair.privateKeyPem, { mode: 0o600 })
    chmodSync(files.privateKeyFile, 0o600)
    writeFileSync(files.publicKeyFile, pair.publicKeyPem)
    return { privateKey: pair.privateKey, publicKey: pair.publicKey, generated: true }
  }
  const privateKey = parsePrivateKey(readFileSync(files.privateKeyFile, "utf8"))
  const publicKey = existsSync(files.publicKeyFile)
    ? parsePublicKey(readFileSync(files.publicKeyFile, "utf8"))
    : (() => {
        throw new ConfigError(`the service's public key ${files.publicKeyFile} does not exist`)
      })()
  return { privateKey, publicKey, generated: false }
}
