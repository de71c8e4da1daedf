/**
 * `ApiSettings`: what every API request needs and that is built once at
 * start-up (Effect 4's habit: acquire in the layer, not per call): the
 * service's keys, the merchants by Partner-Id (re-read when the
 * configuration file changes, merchantReload.ts), the rate limiter, the
 * pipeline's limits, the merchants' clocks and where the gateway is
 * reached. The pipeline, the handlers and the pay page read it.
 */
import type { FeePlan } from "@mizan/kernel"
import type { PrivateKey, PublicKey } from "@mizan/protocol"
import type { MerchantClocks } from "@mizan/test-clock"
import type { PayoutAbility } from "@mizan/transfer"
import { Context } from "effect"
import type { MerchantConfig } from "../config/config.ts"
import type { RateLimiter } from "./rateLimit.ts"

export interface Merchant {
  readonly partnerId: string
  readonly publicKey: PublicKey
  readonly config: MerchantConfig
  /** Whether the merchant may call the operation (403 UNAUTHORIZED otherwise). */
  readonly mayCall: (path: string) => boolean
  readonly acquiringFees: FeePlan
  /** The payout methods it may use, each with its fee plan (none: no fee). */
  readonly payoutAbilities: ReadonlyArray<PayoutAbility>
}

export class ApiSettings extends Context.Service<
  ApiSettings,
  {
    readonly mode: "sandbox" | "production"
    readonly servicePrivateKey: PrivateKey
    readonly servicePublicKey: PublicKey
    readonly merchantOf: (partnerId: string) => Merchant | undefined
    readonly rateLimiter: RateLimiter
    readonly requestTimeWindowMs: number
    readonly bodyLimitBytes: number
    /** Minutes a bank transfer's money takes by networkCode: one for every network a merchant pays out through. */
    readonly bankTransferArrivalMinutes: Readonly<Record<string, number>>
    /**
     * Each merchant's time: real time plus the merchant's sandbox offset
     * (always 0 in production, which has no test clock).
     */
    readonly clocks: MerchantClocks
    /** Where payers and merchants reach this gateway: links in responses start with it. */
    readonly publicBaseUrl: string
    /**
     * Told the port the server really bound, once it listens: with port 0
     * (a free port) the links must name that port, not 0, unless the
     * configuration's publicBaseUrl says where the gateway is reached.
     */
    readonly listeningOn: (port: number) => void
  }
>()("@mizan/gateway/ApiSettings") {}
