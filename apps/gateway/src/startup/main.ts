/**
 * `npm start`: the service on the embedded store, configured by
 * `MIZAN_CONFIG` (default `data/config.json`). With no configuration file a
 * sandbox one is written first, so a fresh clone starts at once; add a
 * merchant with `npm run merchant -- add M100001` (see the README), before
 * or while it runs: the merchants are re-read when the file changes.
 */
// First, before any module uses libuv's thread pool: it is sized when first used.
import "./threadPool.ts"
import { dirname, resolve } from "node:path"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Context, Effect, Exit, Layer, Runtime } from "effect"
import { HttpServer } from "effect/http"
import { configPathDefault, readConfigFile, storeSettingDefault } from "../config/configFile.ts"
import { listenAddressOf } from "./listen.ts"
import { layerService } from "./service.ts"
import { whyItCannotStart } from "./startFailure.ts"

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
      layerService({
        config: { ...config, ...listen },
        baseDir: dirname(configPath),
        configFile: configPath,
        listen,
      }).pipe(
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
