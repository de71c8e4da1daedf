import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { fileErrorReason } from "@mizan/command-line"
import { noFees } from "@mizan/kernel"
import { parsePublicKey } from "@mizan/protocol"
import { ConfigError, grantAll, type MerchantConfig } from "../config/config.ts"
import type { Merchant } from "./apiSettings.ts"

/** A merchant as the pipeline uses it: its key parsed once, its grants as a set. */
export const loadMerchant = (config: MerchantConfig, baseDir: string): Merchant => {
  const pem =
    config.publicKeyPem ??
    (config.publicKeyFile === undefined ? undefined : readKey(resolve(baseDir, config.publicKeyFile), config))
  if (pem === undefined) throw new ConfigError(`merchant ${config.partnerId} has no public key`)
  let publicKey: Merchant["publicKey"]
  try {
    publicKey = parsePublicKey(pem)
  } catch (error) {
    throw new ConfigError(`merchant ${config.partnerId}: ${(error as Error).message}`)
  }
  const grants = new Set(config.grants)
  return {
    partnerId: config.partnerId,
    publicKey,
    config,
    mayCall: (path: string) => grants.has(grantAll) || grants.has(path),
    acquiringFees: config.fees?.acquiring ?? noFees,
  }
}

/** The merchant's key file's text, or a ConfigError naming the merchant, the file, its setting and why. */
const readKey = (path: string, config: MerchantConfig): string => {
  try {
    return readFileSync(path, "utf8")
  } catch (error) {
    throw new ConfigError(
      `merchant ${config.partnerId}: the public key ${path} (publicKeyFile) does not read: ${fileErrorReason(error)}`,
    )
  }
}
