/**
 * `npm run merchant -- add PARTNER_ID [--name NAME] [--config data/config.json]`
 * `npm run merchant -- list [--config data/config.json]`
 *
 * Makes a merchant's key pair and registers it with the gateway's
 * configuration (see registration.ts), or lists the registered merchants.
 */
import { dirname, resolve } from "node:path"
import { grantAll } from "../config/config.ts"
import { configPathDefault } from "../config/configFile.ts"
import { parseArgs, runTool, UsageError } from "./args.ts"
import { displayNameOf } from "./displayName.ts"
import { configPathOf, displayPath, readConfigIfPresent } from "./files.ts"
import { addMerchant, checkAddable } from "./registration.ts"

const usage = `Usage:
  npm run merchant -- add PARTNER_ID [--name NAME] [--config data/config.json]
      Makes an RSA-2048 key pair in data/merchants/PARTNER_ID/ and registers the merchant
      (every operation granted, the default fee plan and payout methods). NAME is what its
      pay pages show payers; at a terminal, add asks for it when --name is not given.
  npm run merchant -- list [--config data/config.json]
      Lists the registered merchants.`

const add = async (configPath: string, partnerId: string | undefined, nameOption: string | undefined) => {
  if (partnerId === undefined) throw new UsageError("add needs a PARTNER_ID")
  // Refused before the question, not after the person answered it.
  checkAddable(configPath, partnerId)
  const name = await displayNameOf(partnerId, nameOption, { input: process.stdin, output: process.stdout })
  const registered = addMerchant(configPath, partnerId, name)
  // The next steps name the configuration only when it is not where npm start looks by default.
  const isDefault = configPath === resolve(configPathDefault)
  const start = isDefault ? "npm start" : `MIZAN_CONFIG=${displayPath(configPath)} npm start`
  const send = (rest: string) =>
    `npm run send -- ${partnerId} ${rest}${isDefault ? "" : ` --config ${displayPath(configPath)}`}`
  console.log(`Registered merchant ${partnerId} in ${displayPath(configPath)}
  private key: ${displayPath(registered.privateKeyFile)} (keep it secret: it signs the merchant's requests)
  public key:  ${displayPath(registered.publicKeyFile)}

Next:
  1. Start the gateway (one already running on this configuration serves the merchant within a second):
       ${start}
  2. Create an order:
       ${send(`/acquire2/placeOrder '{"merchantOrderNo":"ORDER-1","subject":"Coffee","totalAmount":{"amount":25,"currency":"AED"},"paySceneCode":"PAYPAGE"}'`)}
  3. Open the tokenUrl of the answer in a browser and pay, or pay it from here:
       ${send(`payOrder '{"merchantOrderNo":"ORDER-1"}' --sandbox`)}
  4. Read it back:
       ${send(`/acquire2/getOrder '{"merchantOrderNo":"ORDER-1"}'`)}`)
}

const list = (configPath: string) => {
  const config = readConfigIfPresent(configPath)
  if (config === undefined || config.merchants.length === 0) {
    console.log(`No merchants registered in ${displayPath(configPath)}. Add one: npm run merchant -- add M100001`)
    return
  }
  for (const merchant of config.merchants) {
    const keyFile =
      merchant.publicKeyFile === undefined
        ? "public key inline"
        : displayPath(resolve(dirname(configPath), merchant.publicKeyFile))
    const grants = merchant.grants.includes(grantAll) ? "all operations" : `${merchant.grants.length} operation(s)`
    console.log([merchant.partnerId.padEnd(12), grants, keyFile, merchant.name ?? ""].join("  ").trimEnd())
  }
}

const main = () => {
  const args = parseArgs("merchant", process.argv.slice(2), { options: ["config", "name"], flags: [] })
  const [command, partnerId, ...extra] = args.positional
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.join(" ")}`)
  const configPath = configPathOf(args.options.config)
  switch (command) {
    case "add":
      return add(configPath, partnerId, args.options.name)
    case "list":
      return list(configPath)
    case undefined:
      throw new UsageError("say what to do: add or list")
    default:
      throw new UsageError(`unknown command ${command}`)
  }
}

if (import.meta.main) await runTool("merchant", usage, main)
