import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { fileErrorReason } from "@mizan/command-line"
import { fils, noFees } from "@mizan/kernel"
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
    payoutAbilities: (config.payoutAbilities ?? []).map((a) => ({
      ...a,
      feePlan: a.feePlan ?? { basisPoints: 0, fixedFils: fils(0) },
    })),
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

/**
 * The merchants by Partner-Id, replaced whole when the configuration
 * changes (merchantReload.ts): a request sees the old directory or the new
 * one, never half of each.
 */
export interface MerchantDirectory {
  readonly merchantOf: (partnerId: string) => Merchant | undefined
  readonly size: () => number
  /** Loads every merchant of `configs` (throwing a ConfigError, the directory unchanged, if one does not load). */
  readonly replaceWith: (configs: ReadonlyArray<MerchantConfig>) => void
}

const loadAll = (configs: ReadonlyArray<MerchantConfig>, baseDir: string): ReadonlyMap<string, Merchant> =>
  new Map(configs.map((m) => [m.partnerId, loadMerchant(m, baseDir)]))

export const makeMerchantDirectory = (configs: ReadonlyArray<MerchantConfig>, baseDir: string): MerchantDirectory => {
  let byPartnerId = loadAll(configs, baseDir)
  return {
    merchantOf: (partnerId) => byPartnerId.get(partnerId),
    size: () => byPartnerId.size,
    replaceWith: (next) => {
      byPartnerId = loadAll(next, baseDir)
    },
  }
}
