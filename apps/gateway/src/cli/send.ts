/**
 * `npm run send -- PARTNER_ID PATH [BIZCONTENT | @file.json] [--sandbox] [--base-url URL] [--config data/config.json]`
 *
 * Signs a request with the merchant's private key (data/merchants/PARTNER_ID/),
 * sends it, verifies the answer with the service's public key
 * (data/service-public.pem) and prints the answer, head and body, as JSON.
 * Exits 1 when the service refuses (printing its code and message), 2 when
 * the call could not be made.
 */
import { existsSync, readFileSync } from "node:fs"
import { fileErrorReason } from "@mizan/command-line"
import { isOperationPath, operationPaths } from "@mizan/protocol"
import { isHttpUrl } from "../config/config.ts"
import { listenAddressOf } from "../startup/listen.ts"
import { CliError, parseArgs, runTool, UsageError } from "./args.ts"
import { callMerchantApi, callSandbox, type Target } from "./exchange.ts"
import {
  checkPartnerId,
  configPathOf,
  displayPath,
  merchantKeyFiles,
  readConfigIfPresent,
  servicePublicKeyFileOf,
} from "./files.ts"

const usage = `Usage:
  npm run send -- PARTNER_ID PATH [BIZCONTENT | @file.json] [--sandbox] [--base-url URL] [--config data/config.json]

  PATH        a merchant API operation, e.g. /acquire2/placeOrder (${operationPaths.length} in all: see GET /openapi.json),
              or with --sandbox a sandbox helper, e.g. payOrder, advanceClock
  BIZCONTENT  the request's bizContent as JSON text, or @file.json to read it from a file; omit it when none
  --sandbox   send to /sgs/sandbox/... instead of /sgs/api/...
  --base-url  the gateway's address (default: the configuration's publicBaseUrl, or where npm start
              listens: PORT and HOST from the environment, else the configuration's, else 127.0.0.1:8080)

Example:
  npm run send -- M100001 /acquire2/getOrder '{"merchantOrderNo":"ORDER-1"}'`

const readKey = (path: string, missing: string): string => {
  if (!existsSync(path)) throw new CliError(`${displayPath(path)} does not exist: ${missing}`)
  return readFileSync(path, "utf8")
}

/** The text of `@file`, or a one-line refusal that names it ("no such file", not Node's stack). */
const readBizContentFile = (path: string): string => {
  try {
    return readFileSync(path, "utf8")
  } catch (error) {
    throw new CliError(`cannot read the bizContent file ${path}: ${fileErrorReason(error)}`)
  }
}

/** bizContent from the command line: JSON text, or `@file` naming a JSON file. */
const bizContentOf = (argument: string | undefined): unknown => {
  if (argument === undefined) return undefined
  const [source, text] = argument.startsWith("@")
    ? [argument.slice(1), readBizContentFile(argument.slice(1))]
    : ["the bizContent argument", argument]
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new CliError(`${source} is not JSON: ${(error as Error).message}`)
  }
}

/** `acquire2/placeOrder`, `/acquire2/placeOrder` and `/sgs/api/acquire2/placeOrder` name the same operation. */
const operationOf = (path: string) => {
  const normalised = `/${path.replace(/^\/+/, "").replace(/^sgs\/api\//, "")}`
  if (!isOperationPath(normalised))
    throw new UsageError(`${path} is not an operation of the merchant API (a sandbox helper needs --sandbox)`)
  return normalised
}

const sandboxNameOf = (path: string): string => path.replace(/^\/+/, "").replace(/^sgs\/sandbox\//, "")

/** A gateway listening on every interface is reached on this machine at the loopback address. */
const localHostOf = (host: string): string => (host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host)

const main = async () => {
  const args = parseArgs("send", process.argv.slice(2), { options: ["config", "base-url"], flags: ["sandbox"] })
  const [partnerId, path, bizContentArgument, ...extra] = args.positional
  if (partnerId === undefined || path === undefined) throw new UsageError("send needs a PARTNER_ID and a PATH")
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.join(" ")}`)
  checkPartnerId(partnerId)
  const configPath = configPathOf(args.options.config)
  const config = readConfigIfPresent(configPath)
  const servicePublicKeyFile = servicePublicKeyFileOf(configPath, config)
  const listen = listenAddressOf(config)
  const baseUrl = args.options["base-url"]
  if (baseUrl !== undefined && !isHttpUrl(baseUrl))
    throw new UsageError(
      `--base-url must be an absolute http:// or https:// URL, such as http://127.0.0.1:8080, not "${baseUrl}"`,
    )
  const target: Target = {
    baseUrl: baseUrl ?? config?.publicBaseUrl ?? `http://${localHostOf(listen.host)}:${listen.port}`,
    partnerId,
    merchantPrivateKeyPem: readKey(
      merchantKeyFiles(configPath, partnerId).privateKeyFile,
      `register the merchant first: npm run merchant -- add ${partnerId}`,
    ),
    servicePublicKeyPem: readKey(servicePublicKeyFile, "start the gateway once (npm start): it writes its public key"),
    servicePublicKeyFile: displayPath(servicePublicKeyFile),
  }
  const bizContent = bizContentOf(bizContentArgument)
  const answer = args.flags.has("sandbox")
    ? await callSandbox(target, sandboxNameOf(path), bizContent)
    : await callMerchantApi(target, operationOf(path), bizContent)
  console.log(JSON.stringify(JSON.parse(answer.text), null, 2))
  if (answer.refusal !== undefined) {
    const { applyStatus, code, msg, traceCode } = answer.refusal
    throw new CliError(
      `refused: ${applyStatus} ${code}${msg === undefined ? "" : ` ${msg}`}${traceCode === undefined ? "" : ` (traceCode ${traceCode})`}`,
      1,
    )
  }
}

if (import.meta.main) await runTool("send", usage, main)
