/**
 * The configuration file and the defaults of its settings: where `npm
 * start` and the tools look for it, the sandbox one a fresh clone starts
 * with, and what an unset setting means. Kept apart from the service so
 * that the tools (`npm run merchant`, `npm run send`) read and write it
 * without loading the service.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { fileErrorReason } from "@mizan/command-line"
import { ConfigError, decodeConfig, type GatewayConfig } from "./config.ts"

/** The embedded store, beside the configuration file. */
export const storeSettingDefault = "sqlite:mizan.db"

/** The master key file of sealed personal data, beside the configuration; made on first start in sandbox mode. */
export const masterKeyFileDefault = "master-keys.json"

/** How long a data key stays in memory: the bound on a forget reaching this process (docs/architecture.md#sealed-personal-data). */
export const keyCacheSecondsDefault = 30

/** The service's key pair, beside the configuration; made on first start in sandbox mode. */
export const serviceKeyFilesDefault = {
  privateKeyFile: "service-private.pem",
  publicKeyFile: "service-public.pem",
} as const

/** Where `npm start` and the tools look for the configuration when `MIZAN_CONFIG` or `--config` names none. */
export const configPathDefault = "data/config.json"

/** The sandbox a fresh clone starts with: no merchants yet, two wallet members, an IBAN holder, a USD rate. */
export const sandboxConfigDefault: GatewayConfig = {
  mode: "sandbox",
  host: "127.0.0.1",
  port: 8080,
  merchants: [],
  rates: [{ fundoutCurrencyCode: "USD", rate: "0.2722" }],
  sandbox: {
    members: [
      { memberId: "MEMBER-1", phoneNo: "971500000001", fullName: "Amal Saeed", openingBalance: "1000.00" },
      { memberId: "MEMBER-2", phoneNo: "971500000002", fullName: "Omar Khan", openingBalance: "19990.00" },
    ],
    ibanHolders: { AE070331234567890123456: "Amal Saeed" },
  },
}

/** The configuration at `path`, decoded; a missing file is written first as the sandbox one. */
export const readConfigFile = (path: string): GatewayConfig => {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify(sandboxConfigDefault, null, 2)}\n`)
    console.log(`wrote a sandbox configuration to ${path}`)
  }
  return decodeConfigFile(path)
}

/** The configuration at `path`, decoded, or a ConfigError saying why not; never writes the file. */
export const decodeConfigFile = (path: string): GatewayConfig => {
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch (error) {
    throw new ConfigError(`${path} does not read: ${fileErrorReason(error)}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`${path} is not valid JSON: ${(error as Error).message}`)
  }
  return decodeConfig(json)
}
