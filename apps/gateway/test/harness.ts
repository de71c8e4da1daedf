/**
 * Starts a real gateway on 127.0.0.1 (a random port) for a test file, with
 * real RSA-2048 keys, and hands out merchant clients (libs/merchant-client)
 * that talk to it over HTTP exactly as a merchant's system would.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { BankCardTransfer } from "@mizan/card-transfer"
import { EventStore, layerMemory, type RecordedEvent, type StoreError } from "@mizan/eventsourcing"
import { readWholeLog } from "@mizan/eventsourcing/testing"
import { type MerchantClient, makeMerchantClient } from "@mizan/merchant-client"
import { type GeneratedKeyPair, generateKeyPair } from "@mizan/protocol"
import { Effect, type Layer, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import type { GatewayConfig, MerchantConfig } from "../src/config/config.ts"
import { sandboxConfigDefault } from "../src/config/configFile.ts"
import type { HandlerServices } from "../src/handlers/index.ts"
import { layerService, type ServiceOptions } from "../src/startup/service.ts"

let serial = 0
/** A merchantOrderNo no other test of this process uses. */
export const newNumber = (prefix: string) => `${prefix}-${Date.now()}-${++serial}`

// RSA key generation takes ~100 ms; one pair per merchant per test process is plenty.
const keyCache = new Map<string, GeneratedKeyPair>()
export const merchantKeys = (partnerId: string): GeneratedKeyPair => {
  const cached = keyCache.get(partnerId) ?? generateKeyPair()
  keyCache.set(partnerId, cached)
  return cached
}

/** A merchant of the test configuration: every grant, a 1.5% + 0.50 acquiring fee, LOCAL and SWIFT payouts. */
export const testMerchant = (partnerId: string, overrides: Partial<MerchantConfig> = {}): MerchantConfig => ({
  partnerId,
  publicKeyPem: merchantKeys(partnerId).publicKeyPem,
  grants: ["*"],
  rateLimit: { requestsPerSecond: 1000, burstRequests: 1000 },
  fees: {
    acquiring: { basisPoints: 150, fixedFils: 50 as never },
    walletTransfer: { basisPoints: 0, fixedFils: 100 as never },
    bankCardTransfer: { basisPoints: 100, fixedFils: 0 as never },
  },
  payoutAbilities: [
    { countryCode: "UAE", fundoutCurrencyCode: "AED", networkCode: "LOCAL", name: "UAEFTS", beneficiaryType: "IBAN" },
    {
      countryCode: "US",
      fundoutCurrencyCode: "USD",
      networkCode: "SWIFT",
      name: "SWIFT",
      beneficiaryType: "IBAN",
      feePlan: { basisPoints: 0, fixedFils: 2500 as never },
    },
  ],
  products: [BankCardTransfer.bankCardTransferProduct],
  memberId: `${partnerId}-MID`,
  ...overrides,
})

/** The sandbox a fresh clone starts with (its members, IBAN holder and rate), with two merchants, M1 and M2. */
export const testConfig = (overrides: Partial<GatewayConfig> = {}): GatewayConfig => {
  const { host: _, port: __, ...sandboxDefaults } = sandboxConfigDefault
  // Warnings and errors only: the access log of every test request would bury a failure's output.
  return {
    ...sandboxDefaults,
    merchants: [testMerchant("M1"), testMerchant("M2")],
    logging: { level: "warn" },
    ...overrides,
  }
}

export interface TestGateway {
  readonly baseUrl: string
  readonly servicePublicKeyPem: string
  /** Moves a merchant's sandbox test clock forward (M1's unless named), through the sandbox API. */
  readonly advanceClock: (minutes: number, partnerId?: string) => Promise<void>
  /** A merchant client for a configured merchant (M1 unless named). */
  readonly merchant: (partnerId?: string) => MerchantClient
  /** Every event the gateway's store holds, in global order. */
  readonly allEvents: () => Promise<ReadonlyArray<RecordedEvent>>
  /** Runs an effect against the gateway's own services (its store, say), for assertions. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, HandlerServices>) => Promise<A>
  readonly close: () => Promise<void>
}

export interface StartOptions {
  readonly config?: GatewayConfig
  readonly storeLayer?: Layer.Layer<EventStore, StoreError>
  readonly notifier?: ServiceOptions["notifier"]
  readonly headSignIntervalMs?: number
}

export const startGateway = async (options: StartOptions = {}): Promise<TestGateway> => {
  const dataDir = mkdtempSync(join(tmpdir(), "mizan-gateway-"))
  const config = options.config ?? testConfig()
  const runtime = ManagedRuntime.make(
    layerService({
      config,
      baseDir: dataDir,
      storeLayer: options.storeLayer ?? layerMemory,
      listen: { port: 0, host: "127.0.0.1" },
      ...(options.notifier === undefined ? {} : { notifier: options.notifier }),
      ...(options.headSignIntervalMs === undefined ? {} : { headSignIntervalMs: options.headSignIntervalMs }),
    }),
  )
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (address._tag === "UnixPathAddress") throw new Error("the test gateway did not listen on TCP")
  const baseUrl = `http://127.0.0.1:${address.port}`
  const servicePublicKeyPem = readFileSync(
    resolve(dataDir, config.serviceKeys?.publicKeyFile ?? "service-public.pem"),
    "utf8",
  )
  const merchant = (partnerId = "M1") =>
    makeMerchantClient({
      baseUrl,
      partnerId,
      merchantPrivateKeyPem: merchantKeys(partnerId).privateKeyPem,
      servicePublicKeyPem,
    })
  return {
    baseUrl,
    servicePublicKeyPem,
    advanceClock: (minutes, partnerId = "M1") =>
      Effect.runPromise(Effect.asVoid(merchant(partnerId).sandbox("advanceClock", { minutes }))),
    merchant,
    run: (effect) => runtime.runPromise(effect),
    allEvents: () => runtime.runPromise(Effect.flatMap(EventStore, (store) => readWholeLog(store))),
    close: async () => {
      await runtime.dispose()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
