/**
 * The gateway's composition: configuration in, one layer out that serves the
 * merchant API (and, in sandbox mode, the sandbox) over HTTP on the chosen
 * store, with the notifier running in the same process (`npm start`).
 */

import { resolve } from "node:path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { CardPayoutBank, CardPayoutBankUnavailable } from "@mizan/card-transfer"
import {
  type EventStore,
  ExclusiveWork,
  inProcessExclusiveWork,
  KeyRing,
  layerInstrumentedEventStore,
  layerMemorySubjectKeys,
  layerWriteHealth,
  type StoreError,
} from "@mizan/eventsourcing"
import { parseFils } from "@mizan/kernel"
import { layerSandboxMemberDirectory, MemberDirectory, MemberDirectoryUnavailable } from "@mizan/order-flows"
import { mizanSealingPlan } from "@mizan/order-views"
import { sha256Hex } from "@mizan/protocol"
import {
  keyFileRefusalOf,
  layerExclusiveWork,
  layerKeyFile,
  layerSandboxKeyFile,
  layerSealed,
  layerStore,
} from "@mizan/stores"
import { layerLogging, layerOtlpFromEnv } from "@mizan/telemetry"
import { MerchantClocks } from "@mizan/test-clock"
import {
  BankTransfer,
  HolderNameLookup,
  HolderNameLookupUnavailable,
  layerHolderNameDirectory,
  layerRateTable,
  PayoutAbilities,
  rate,
} from "@mizan/transfer"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import {
  bankTransferArrivalMinutesOf,
  bodyLimitBytesDefault,
  ConfigError,
  type GatewayConfig,
  rateLimitDefault,
  requestTimeWindowMinutesDefault,
} from "../config/config.ts"
import {
  keyCacheSecondsDefault,
  masterKeyFileDefault,
  serviceKeyFilesDefault,
  storeSettingDefault,
} from "../config/configFile.ts"
import { connectionLimitsOf, unauthenticatedBudgetOf } from "../config/limits.ts"
import { loadServiceKeys } from "../config/serviceKeys.ts"
import { ApiSettings } from "../pipeline/apiSettings.ts"
import { followMerchants } from "../pipeline/merchantReload.ts"
import { makeMerchantDirectory } from "../pipeline/merchants.ts"
import { RateLimiter } from "../pipeline/rateLimit.ts"
import { UnauthenticatedBudgets } from "../pipeline/unauthenticatedBudget.ts"
import { canonicalPathsOnly } from "./canonicalPath.ts"
import { withCrashHook } from "./crashHook.ts"
import { createDrainingServer } from "./drainingServer.ts"

export interface GatewayOptions {
  readonly config: GatewayConfig
  /** Relative paths of the configuration (store file, key files) are resolved from here. */
  readonly baseDir: string
  /** Replaces the configured store (tests use the memory store). */
  readonly storeLayer?: Layer.Layer<EventStore, StoreError>
  /** The file the configuration was read from (`npm start`'s): its merchants are re-read when it changes. */
  readonly configFile?: string
}

const layerApiSettings = (options: GatewayOptions): Layer.Layer<ApiSettings, ConfigError> =>
  Layer.effect(
    ApiSettings,
    Effect.clockWith((realClock) =>
      Effect.try({
        try: () => {
          const { config, baseDir } = options
          const files = config.serviceKeys ?? serviceKeyFilesDefault
          const keys = loadServiceKeys(
            {
              privateKeyFile: resolve(baseDir, files.privateKeyFile),
              publicKeyFile: resolve(baseDir, files.publicKeyFile),
            },
            config.mode,
          )
          const merchants = makeMerchantDirectory(config.merchants, baseDir)
          let port = config.port ?? 8080
          const apiSettings = ApiSettings.of({
            mode: config.mode,
            servicePrivateKey: keys.privateKey,
            servicePublicKey: keys.publicKey,
            merchantOf: merchants.merchantOf,
            rateLimiter: new RateLimiter(
              (partnerId) =>
                merchants.merchantOf(partnerId)?.config.rateLimit ?? config.defaultRateLimit ?? rateLimitDefault,
            ),
            unauthenticatedBudgets: new UnauthenticatedBudgets(unauthenticatedBudgetOf(config)),
            trustedProxies: new Set(config.trustedProxies ?? []),
            requestTimeWindowMs: (config.requestTimeWindowMinutes ?? requestTimeWindowMinutesDefault) * 60_000,
            bodyLimitBytes: config.bodyLimitBytes ?? bodyLimitBytesDefault,
            bankTransferArrivalMinutes: bankTransferArrivalMinutesOf(config),
            get publicBaseUrl() {
              return config.publicBaseUrl ?? `http://${config.host ?? "127.0.0.1"}:${port}`
            },
            listeningOn: (boundPort) => {
              port = boundPort
            },
            clocks: new MerchantClocks(realClock),
          })
          return { apiSettings, merchants }
        },
        catch: (error) =>
          error instanceof ConfigError ? error : new ConfigError(String((error as Error).message ?? error)),
      }),
    ).pipe(
      Effect.tap(({ merchants }) =>
        options.configFile === undefined ? Effect.void : followMerchants(options.configFile, merchants),
      ),
      Effect.map(({ apiSettings }) => apiSettings),
    ),
  )

/** Each merchant's payout methods, as the merchant directory holds them now; the configured exchange rates. */
const layerPayoutTerms = (config: GatewayConfig) => {
  const abilities = Layer.effect(
    PayoutAbilities,
    Effect.map(ApiSettings, (settings) => ({
      abilitiesOf: (merchantId: string) => Effect.succeed(settings.merchantOf(merchantId)?.payoutAbilities ?? []),
    })),
  )
  const rates = Object.fromEntries((config.rates ?? []).map((r) => [r.fundoutCurrencyCode, rate(r.rate)]))
  return Layer.mergeAll(abilities, layerRateTable(rates))
}

const openingBalanceFils = (text: string) => {
  const amount = parseFils(text)
  if (amount === undefined) throw new ConfigError(`sandbox member opening balance "${text}" is not a decimal amount`)
  return amount
}

/**
 * The outside world's stand-ins. In the sandbox: members and holder names
 * from configuration. In production the member directory, holder-name
 * lookup and banks are integrations this project does not ship: their ports
 * answer "unavailable" (62103 for the IBAN query; transfers stay CREATED).
 */
const layerOutsideWorld = (config: GatewayConfig) => {
  if (config.mode === "sandbox") {
    const members = (config.sandbox?.members ?? []).map((m) => ({
      memberId: m.memberId,
      memberIdDigest: sha256Hex(m.memberId),
      phoneNoDigest: sha256Hex(m.phoneNo),
      fullName: sha256Hex(m.fullName),
      openingBalanceFils: openingBalanceFils(m.openingBalance),
    }))
    return Layer.mergeAll(
      layerSandboxMemberDirectory(members),
      layerHolderNameDirectory(config.sandbox?.ibanHolders ?? {}),
      // The sandbox's banks take every payout; its outcome comes from the sandbox API.
      Layer.succeed(BankTransfer.PayoutBank, { submitBankTransfer: () => Effect.void }),
      Layer.succeed(CardPayoutBank, { submitCardPayout: () => Effect.void }),
    )
  }
  const notConnected = (what: string) => ({ detail: `no ${what} is connected to this gateway` })
  return Layer.mergeAll(
    Layer.succeed(HolderNameLookup, {
      registeredHolderName: () => Effect.fail(new HolderNameLookupUnavailable(notConnected("holder-name directory"))),
    }),
    Layer.succeed(MemberDirectory, {
      find: () => Effect.fail(new MemberDirectoryUnavailable(notConnected("member directory"))),
      credit: () => Effect.fail(new MemberDirectoryUnavailable(notConnected("member directory"))),
    }),
    Layer.succeed(BankTransfer.PayoutBank, {
      submitBankTransfer: () => Effect.fail(new BankTransfer.BankUnavailable(notConnected("bank"))),
    }),
    Layer.succeed(CardPayoutBank, {
      submitCardPayout: () => Effect.fail(new CardPayoutBankUnavailable(notConnected("card payout bank"))),
    }),
  )
}

/**
 * What the process tells its operator: log lines (real time, the configured
 * format and level) and, when `OTEL_EXPORTER_OTLP_ENDPOINT` names a
 * collector, traces and metrics over OTLP.
 */
export const layerTelemetry = (config: GatewayConfig) =>
  Layer.mergeAll(layerLogging(config.logging), layerOtlpFromEnv("mizan-gateway"))

/** The store the handlers write: the configured one, sealed (docs/architecture.md#sealed-personal-data) and instrumented. */
const layerGatewayStore = (options: GatewayOptions) => {
  // A store given as a layer (the tests' memory store) keeps its data keys in memory beside it.
  const storeWithKeys =
    options.storeLayer === undefined
      ? layerStore(options.config.store ?? storeSettingDefault, options.baseDir)
      : Layer.merge(options.storeLayer, layerMemorySubjectKeys)
  const keyFile = resolve(options.baseDir, options.config.masterKeyFile ?? masterKeyFileDefault)
  // Sandbox mode makes a missing file, but not for a store whose data keys another master key wraps.
  const keyRing = (
    options.config.mode === "sandbox"
      ? layerSandboxKeyFile(keyFile, "masterKeyFile")
      : layerKeyFile(keyFile, { createWhenMissing: false, settingName: "masterKeyFile" })
  ).pipe(
    // The file's refusal names it and masterKeyFile: a setting's fault, not "the event store cannot be used".
    Layer.catchTag("StoreError", (error) => Layer.effect(KeyRing, Effect.fail(new ConfigError(error.detail)))),
    // The same layer as the sealed store's below, so built once.
    Layer.provide(storeWithKeys),
  )
  // Sealing sits below the instrumentation, so that an append's span includes what sealing costs; the write
  // health above sealing, so that a sealed append whose new data key cannot be stored counts as a failed write.
  return layerInstrumentedEventStore.pipe(
    Layer.provideMerge(
      layerWriteHealth.pipe(
        Layer.provideMerge(
          withCrashHook(
            layerSealed(storeWithKeys, keyRing, mizanSealingPlan, {
              keyCacheMs: (options.config.keyCacheSeconds ?? keyCacheSecondsDefault) * 1_000,
            }),
            options.config.mode,
          ).pipe(
            Layer.catchTag("StoreError", (error) => Layer.effectContext(Effect.fail(keyFileRefusal(keyFile, error)))),
          ),
        ),
      ),
    ),
  )
}

/**
 * A start-up StoreError the key ring caused (keyFileRefusalOf: another
 * store's master key file, a key replaced) is the masterKeyFile setting's
 * fault, said with the file, not "the event store cannot be used"; any
 * other StoreError is the store's.
 */
const keyFileRefusal = (keyFile: string, error: StoreError): StoreError | ConfigError => {
  const refusal = keyFileRefusalOf(keyFile, "masterKeyFile", error)
  return refusal === undefined ? error : new ConfigError(refusal)
}

/** Everything the handlers need, built once, over the sealed store. */
export const layerGatewayServices = (options: GatewayOptions) =>
  layerGatewayServicesOver(options, layerGatewayStore(options))

/**
 * Everything the handlers need, over `store`. The gateway runs on
 * `layerGatewayStore` alone, and no configuration runs it unsealed: the
 * sealing benchmark passes a plain store here, beside the sealed one, to
 * measure what sealing costs a create order (tools/bench/src/sealing.ts).
 */
export const layerGatewayServicesOver = <S, E>(options: GatewayOptions, store: Layer.Layer<S, E>) => {
  const setting = options.config.store ?? storeSettingDefault
  // A store given as a layer (the tests' memory store) is this process's alone.
  const exclusiveWork =
    options.storeLayer === undefined
      ? layerExclusiveWork(setting, options.baseDir)
      : Layer.succeed(ExclusiveWork, inProcessExclusiveWork())
  return Layer.mergeAll(
    layerPayoutTerms(options.config).pipe(Layer.provideMerge(layerApiSettings(options))),
    exclusiveWork,
  ).pipe(
    Layer.provideMerge(layerOutsideWorld(options.config).pipe(Layer.provideMerge(store))),
    Layer.provideMerge(layerTelemetry(options.config)),
  )
}

export interface Listen {
  readonly port: number
  readonly host: string
}

/**
 * The HTTP server of the gateway on `listen`, with the routes given, each
 * behind the canonical path check, bounded as `config.connections` says.
 */
export const layerHttp = <E, R>(
  routes: Layer.Layer<never, E, R | HttpRouter.HttpRouter>,
  listen: Listen,
  config: GatewayConfig,
) =>
  HttpRouter.serve(Layer.merge(routes, canonicalPathsOnly), { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(() => createDrainingServer(connectionLimitsOf(config)), listen)),
  )
