/**
 * Registering a merchant: a fresh RSA-2048 key pair in its folder and an
 * entry in the configuration file with everything a sandbox merchant needs
 * to try every operation (all grants, fee plans, the payout methods).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { BankCardTransfer } from "@mizan/card-transfer"
import { fils, withoutUndefined } from "@mizan/kernel"
import { generateKeyPair } from "@mizan/protocol"
import { decodeConfig, grantAll, type MerchantConfig } from "../config/config.ts"
import { readConfigFile } from "../config/configFile.ts"
import { CliError } from "./args.ts"
import { checkPartnerId, displayPath, merchantKeyFiles } from "./files.ts"

/**
 * A new merchant's terms, said once here and in the README: 1.5% per paid
 * order, AED 1.00 per wallet transfer, 1% per bank card transfer; payouts
 * to UAE IBANs (AED, no fee) and by SWIFT in USD (AED 25.00).
 */
export const merchantDefaults = (partnerId: string, publicKeyFile: string, name?: string): MerchantConfig => ({
  partnerId,
  ...withoutUndefined({ name }),
  publicKeyFile,
  grants: [grantAll],
  fees: {
    acquiring: { basisPoints: 150, fixedFils: fils(0) },
    walletTransfer: { basisPoints: 0, fixedFils: fils(100) },
    bankCardTransfer: { basisPoints: 100, fixedFils: fils(0) },
  },
  payoutAbilities: [
    { countryCode: "UAE", fundoutCurrencyCode: "AED", networkCode: "LOCAL", name: "UAEFTS", beneficiaryType: "IBAN" },
    {
      countryCode: "US",
      fundoutCurrencyCode: "USD",
      networkCode: "SWIFT",
      name: "SWIFT",
      beneficiaryType: "IBAN",
      feePlan: { basisPoints: 0, fixedFils: fils(2_500) },
    },
  ],
  products: [BankCardTransfer.bankCardTransferProduct],
})

export interface Registered {
  readonly partnerId: string
  readonly privateKeyFile: string
  readonly publicKeyFile: string
}

/** Replaces a file in one step, so a crash never leaves half a configuration. */
const writeAtomically = (path: string, text: string): void => {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}

/**
 * The key files of a merchant that may be added, or the CliError that says
 * why not (see addMerchant); run before asking anything of the person too.
 */
export const checkAddable = (configPath: string, partnerId: string) => {
  checkPartnerId(partnerId)
  const current = readConfigFile(configPath)
  if (current.merchants.some((m) => m.partnerId === partnerId))
    throw new CliError(`merchant ${partnerId} is already registered in ${displayPath(configPath)}`, 1)
  const files = merchantKeyFiles(configPath, partnerId)
  if (existsSync(files.privateKeyFile))
    throw new CliError(
      `${displayPath(files.privateKeyFile)} already exists: remove it (or its folder) to make a new key pair`,
      1,
    )
  return files
}

/**
 * Adds a merchant: refuses an id the protocol cannot carry, a registered id,
 * and an existing private key (a key is never overwritten: merchants' systems
 * may already sign with it). Creates the configuration with the sandbox
 * defaults of `npm start` when it does not exist yet.
 */
export const addMerchant = (configPath: string, partnerId: string, name?: string): Registered => {
  const files = checkAddable(configPath, partnerId)

  const pair = generateKeyPair()
  mkdirSync(files.directory, { recursive: true })
  writeFileSync(files.privateKeyFile, pair.privateKeyPem, { mode: 0o600 })
  chmodSync(files.privateKeyFile, 0o600) // in case a umask or an earlier file widened it
  writeFileSync(files.publicKeyFile, pair.publicKeyPem)

  // The file as written, not the decoded configuration: fields this tool does not know stay as they are.
  const json = JSON.parse(readFileSync(configPath, "utf8")) as { merchants: Array<unknown> }
  json.merchants = [...json.merchants, merchantDefaults(partnerId, files.publicKeyFileInConfig, name)]
  decodeConfig(json)
  writeAtomically(configPath, `${JSON.stringify(json, null, 2)}\n`)
  return { partnerId, privateKeyFile: files.privateKeyFile, publicKeyFile: files.publicKeyFile }
}
