/**
 * Where the tools keep what they make, beside the configuration file (the
 * data folder, `data/` by default):
 *
 *   data/config.json                      the gateway's configuration
 *   data/service-public.pem               the service's public key (written by the gateway's first start)
 *   data/merchants/<id>/private.pem       a merchant's private key (mode 0600)
 *   data/merchants/<id>/public.pem        its public key, registered in the configuration
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { partnerIdMaxChars } from "@mizan/protocol"
import { decodeConfig, type GatewayConfig } from "../config/config.ts"
import { configPathDefault, serviceKeyFilesDefault } from "../config/configFile.ts"
import { CliError } from "./args.ts"

/** The configuration file: `--config`, else `MIZAN_CONFIG` (as `npm start` reads it), else `data/config.json`. */
export const configPathOf = (option: string | undefined): string =>
  resolve(option ?? process.env.MIZAN_CONFIG ?? configPathDefault)

/** Letters, digits, `-` and `_`: a Partner-Id is also the name of the merchant's key folder. */
const partnerIdPattern = /^[A-Za-z0-9_-]+$/

/** Refuses a partner id the Partner-Id header cannot carry (spec: String(12)) or a folder cannot be named. */
export const checkPartnerId = (partnerId: string): string => {
  if (partnerId.length > partnerIdMaxChars)
    throw new CliError(
      `partner id ${partnerId} is ${partnerId.length} characters long: the Partner-Id header takes at most ${partnerIdMaxChars}`,
      1,
    )
  if (!partnerIdPattern.test(partnerId))
    throw new CliError(`partner id "${partnerId}" may hold only letters, digits, "-" and "_"`, 1)
  return partnerId
}

/** A merchant's key files; `publicKeyFile` relative to the configuration file, as the configuration names it. */
export const merchantKeyFiles = (configPath: string, partnerId: string) => {
  const directory = join(dirname(configPath), "merchants", partnerId)
  return {
    directory,
    privateKeyFile: join(directory, "private.pem"),
    publicKeyFile: join(directory, "public.pem"),
    publicKeyFileInConfig: relative(dirname(configPath), join(directory, "public.pem")),
  }
}

/** The configuration if its file exists, without writing one (only `merchant add` and `npm start` write it). */
export const readConfigIfPresent = (configPath: string): GatewayConfig | undefined => {
  if (!existsSync(configPath)) return undefined
  try {
    return decodeConfig(JSON.parse(readFileSync(configPath, "utf8")))
  } catch (error) {
    throw new CliError(`${displayPath(configPath)}: ${(error as Error).message}`)
  }
}

/** The service's public key file, as the configuration places it (default `service-public.pem` beside it). */
export const servicePublicKeyFileOf = (configPath: string, config: GatewayConfig | undefined): string =>
  resolve(dirname(configPath), config?.serviceKeys?.publicKeyFile ?? serviceKeyFilesDefault.publicKeyFile)

/** A path as a person typed it: relative to where they stand when that is shorter. */
export const displayPath = (path: string): string => {
  const fromHere = relative(process.cwd(), path)
  return fromHere.startsWith("..") ? path : fromHere
}
