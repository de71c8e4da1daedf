/**
 * The service's key pair: signs every response and notification, decrypts
 * encrypted request fields. In sandbox mode a missing pair is generated on
 * first start and its public key written where the README says
 * (`data/service-public.pem` by default), for merchants to verify with.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { readSettingFile } from "@mizan/command-line"
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
  const privateKey = readKeyFile(files.privateKeyFile, "private", parsePrivateKey)
  if (!existsSync(files.publicKeyFile))
    throw new ConfigError(`the service's public key ${files.publicKeyFile} does not exist`)
  const publicKey = readKeyFile(files.publicKeyFile, "public", parsePublicKey)
  return { privateKey, publicKey, generated: false }
}

/** A service key file read and parsed; one that does not is refused naming it and its setting (a SettingFileError, which the gateway's layer reports as a ConfigError). */
const readKeyFile = <Key>(path: string, kind: "private" | "public", parse: (pem: string) => Key): Key =>
  readSettingFile({ what: `the service's ${kind} key`, path, settingName: `serviceKeys.${kind}KeyFile` }, parse)
