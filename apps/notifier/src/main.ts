/**
 * The notifier as a process of its own, against the store the
 * gateway writes (`npm start` runs it inside the gateway instead):
 *
 *   npx node apps/notifier/src/main.ts run
 *   npx node apps/notifier/src/main.ts show NOTIFY_ID
 *   npx node apps/notifier/src/main.ts resend NOTIFY_ID --by OPERATOR
 *
 * Environment:
 *   MIZAN_STORE                      the store: sqlite:PATH (default sqlite:data/mizan.db), postgres://... or kurrentdb://...
 *   MIZAN_NOTIFIER_MODE              production (default) or sandbox (loopback notifyUrls allowed)
 *   MIZAN_SERVICE_PRIVATE_KEY_FILE   the service's PKCS#8 PEM key (default data/service-private.pem); `run` only
 *   MIZAN_MASTER_KEY_FILE            the master keys of sealed personal data (default data/master-keys.json, as the gateway makes it)
 *   MIZAN_LOG_FORMAT, MIZAN_LOG_LEVEL  json (default) or pretty; debug, info (default), warn or error
 *   OTEL_EXPORTER_OTLP_ENDPOINT      an OpenTelemetry collector: traces and metrics are sent there
 */
import { type CommandLineError, readCommandLine, readSettingFile, type SettingFileError } from "@mizan/command-line"
import { type EventStore, keepHeadSignerRunning, layerInstrumentedEventStore, StoreError } from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { parsePrivateKey, sign } from "@mizan/protocol"
import { keyFileRefusalOf, layerExclusiveWork, layerKeyFile, layerSealed, layerStore } from "@mizan/stores"
import { layerLogging, layerOtlpFromEnv, logSettingsFromEnv, type TelemetrySettingError } from "@mizan/telemetry"
import { Cause, Effect, Exit, Fiber, Layer } from "effect"
import { keepNotifierRunning } from "./notifier.ts"
import { attemptHistory, readNotification, resendNotification } from "./operator.ts"
import type { NotifierMode } from "./urlPolicy.ts"

// npx: the project's Node 24, which node:sqlite needs (the machine's bare node may be older).
const usage = `usage:
  npx node apps/notifier/src/main.ts run
  npx node apps/notifier/src/main.ts show NOTIFY_ID
  npx node apps/notifier/src/main.ts resend NOTIFY_ID --by OPERATOR`

const fail = (message: string): never => {
  console.error(message)
  process.exit(2)
}

/** A command line that does not hold: what is wrong in the first line, then the usage. */
const failUsage = (reason: string): never => fail(`${reason}\n\n${usage}`)

const storeSetting = process.env.MIZAN_STORE ?? "sqlite:data/mizan.db"
const masterKeyFile = process.env.MIZAN_MASTER_KEY_FILE ?? "data/master-keys.json"

/**
 * What went wrong, in a sentence: a refusal's message, not a stack. A store
 * error the key ring caused (another store's master key file) is said as
 * the key file's fault, naming it and its setting.
 */
const reasonOf = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (error instanceof StoreError)
    return keyFileRefusalOf(masterKeyFile, "MIZAN_MASTER_KEY_FILE", error) ?? error.message
  return error instanceof Error ? error.message : String(error)
}

/**
 * Runs `program` on the store, its personal fields opened with the master
 * key file the gateway made (never made here). `run` creates a SQLite store
 * that is not there yet (the gateway may start after it); the operator's
 * commands read only one that exists, so that a mistyped path is not a
 * store with nothing in it.
 */
const onStore = <A, E>(program: Effect.Effect<A, E, EventStore>, options: { readonly mustExist: boolean }) =>
  Effect.provide(
    program,
    layerInstrumentedEventStore.pipe(
      Layer.provide(
        layerSealed(
          layerStore(storeSetting, process.cwd(), options),
          layerKeyFile(masterKeyFile, { createWhenMissing: false, settingName: "MIZAN_MASTER_KEY_FILE" }),
          mizanSealingPlan,
        ),
      ),
    ),
  )

/** The state as text: bigints (the source position) are written as decimal strings. */
const show = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2)

const modeOf = (text: string | undefined): NotifierMode =>
  text === undefined || text === "production"
    ? "production"
    : text === "sandbox"
      ? "sandbox"
      : failUsage(`MIZAN_NOTIFIER_MODE must be production or sandbox, not "${text}"`)

const commandLine = (() => {
  try {
    return readCommandLine("mizan-notifier", process.argv.slice(2), { by: { type: "string" } })
  } catch (error) {
    return fail((error as CommandLineError).message)
  }
})()
if (commandLine.help) {
  console.log(usage)
  process.exit(0)
}
const [command, notifyId] = commandLine.positionals
const by = commandLine.values.by

switch (command) {
  case "run": {
    // Read before the store opens and the notifier's turn is awaited: a typo waits for nothing.
    const mode = modeOf(process.env.MIZAN_NOTIFIER_MODE)
    const keyFile = process.env.MIZAN_SERVICE_PRIVATE_KEY_FILE ?? "data/service-private.pem"
    const privateKey = (() => {
      try {
        return readSettingFile(
          { what: "the service's private key", path: keyFile, settingName: "MIZAN_SERVICE_PRIVATE_KEY_FILE" },
          parsePrivateKey,
        )
      } catch (error) {
        return fail((error as SettingFileError).message)
      }
    })()
    const telemetry = (() => {
      try {
        return Layer.mergeAll(layerLogging(logSettingsFromEnv()), layerOtlpFromEnv("mizan-notifier"))
      } catch (error) {
        return fail((error as TelemetrySettingError).message)
      }
    })()
    // A store that does not open ends the process, as does a defect; one that fails it later only pauses it.
    // It holds the service's key, so it signs the log's heads too (a gateway without the notifier role does not).
    const notifier = Effect.runFork(
      onStore(
        Effect.all(
          [
            keepNotifierRunning({ mode, sign: (body) => sign(body, privateKey) }),
            keepHeadSignerRunning((payload) => sign(payload, privateKey)),
          ],
          { concurrency: "unbounded", discard: true },
        ).pipe(Effect.provide(layerExclusiveWork(storeSetting, process.cwd()))),
        { mustExist: false },
      ).pipe(Effect.provide(telemetry)),
    )
    const stop = () => void Effect.runFork(Fiber.interrupt(notifier))
    process.once("SIGINT", stop)
    process.once("SIGTERM", stop)
    const exit = await Effect.runPromise(Fiber.await(notifier))
    if (Exit.isFailure(exit) && !Exit.hasInterrupts(exit)) fail(`notifier stopped: ${reasonOf(exit.cause)}`)
    break
  }
  case "show": {
    if (notifyId === undefined) failUsage("show needs a NOTIFY_ID")
    const exit = await Effect.runPromiseExit(
      onStore(Effect.all([readNotification(notifyId as string), attemptHistory(notifyId as string)]), {
        mustExist: true,
      }),
    )
    if (Exit.isFailure(exit)) fail(`cannot read notification ${notifyId}: ${reasonOf(exit.cause)}`)
    else if (exit.value[0].status === "ABSENT")
      fail(`no notification ${notifyId} in the store (give the notify_id as the merchant received it)`)
    else {
      const [state, history] = exit.value
      console.log(show(state))
      console.log("\nhistory, on the merchant's time:")
      for (const line of history) console.log(`  ${new Date(line.at).toISOString()}  ${line.what}`)
    }
    break
  }
  case "resend": {
    if (notifyId === undefined || by === undefined) failUsage("resend needs a NOTIFY_ID and --by OPERATOR")
    const exit = await Effect.runPromiseExit(
      onStore(resendNotification(notifyId as string, by as string), { mustExist: true }),
    )
    if (Exit.isFailure(exit)) fail(`not resent: ${reasonOf(exit.cause)}`)
    console.log(`notification ${notifyId} will be sent again; the running notifier picks it up from the store`)
    break
  }
  case undefined:
    failUsage("no command given")
    break
  default:
    failUsage(`unknown command "${command}"`)
}
