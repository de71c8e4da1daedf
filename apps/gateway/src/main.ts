/**
 * `npm start`: the service on the embedded store, configured by
 * `MIZAN_CONFIG` (default `data/config.json`). With no configuration file a
 * sandbox one is written first, so a fresh clone starts at once; add a
 * merchant with `npm run merchant -- add M100001` (see the README).
 */
// First, before any module uses libuv's thread pool: it is sized when first used.
import "./threadPool.ts"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Context, Effect, Exit, Layer, Runtime } from "effect"
import { HttpServer } from "effect/http"
import { storeSettingDefault } from "./app.ts"
import { ConfigError, decodeConfig, type GatewayConfig } from "./config.ts"
import { listenAddressOf } from "./listen.ts"
import { layerService } from "./service.ts"
import { whyItCannotStart } from "./startFailure.ts"

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

export const readConfigFile = (path: string): GatewayConfig => {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify(sandboxConfigDefault, null, 2)}\n`)
    console.log(`wrote a sandbox configuration to ${path}`)
  }
  let json: unknown
  try {
    json = JSON.parse(readFileSync(path, "utf8"))
  } catch (error) {
    throw new ConfigError(`${path} is not valid JSON: ${(error as Error).message}`)
  }
  return decodeConfig(json)
}

/** Starts the service as `npm start` does; a configuration it cannot use ends it with one line saying why. */
const start = () => {
  const configPath = resolve(process.env.MIZAN_CONFIG ?? configPathDefault)
  const config = readConfigFile(configPath)
  const listen = listenAddressOf(config)
  /** Said with the address the server really bound. */
  const started = (address: string) =>
    Effect.sync(() =>
      console.log(
        `Mizan gateway (${config.mode}) on ${address}, ${config.merchants.length} merchant(s), config ${configPath}`,
      ),
    )
  NodeRuntime.runMain(
    Layer.launch(
      // Links in responses (tokenUrl) point where the service really listens, unless publicBaseUrl says otherwise.
      layerService({ config: { ...config, ...listen }, baseDir: dirname(configPath), listen }).pipe(
        // Said once the service listens, never before a listen that fails.
        Layer.tap((services) =>
          started(HttpServer.formatAddress(Context.get(services, HttpServer.HttpServer).address)),
        ),
      ),
    ).pipe(
      Effect.catch((error) => {
        const why = whyItCannotStart(error, listen, config.store ?? storeSettingDefault)
        if (why === undefined) return Effect.fail(error)
        return Effect.sync(() => {
          console.error(why)
          process.exitCode = 1
        })
      }),
    ),
    { teardown: keepingExitCode },
  )
}

/**
 * The runtime's teardown, except that a run that ended by saying why it
 * stopped keeps the exit code it set, and a stop asked for by SIGTERM or
 * SIGINT that shut down cleanly (requests answered, attempts recorded, the
 * store closed) exits 0: it did what it was asked.
 */
const keepingExitCode: Runtime.Teardown = (exit, onExit) => {
  if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) return onExit(Number(process.exitCode ?? 0))
  Runtime.defaultTeardown(exit, (code) => onExit(code === 0 ? Number(process.exitCode ?? 0) : code))
}

if (import.meta.main) {
  try {
    start()
  } catch (error) {
    // A configuration file or an environment that does not hold stops the start before any layer is built.
    const why = whyItCannotStart(error)
    if (why === undefined) throw error
    console.error(why)
    process.exitCode = 1
  }
}
