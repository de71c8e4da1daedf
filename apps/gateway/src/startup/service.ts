/**
 * The whole service in one process (`npm start`): the gateway's HTTP
 * server, the notifier delivering what the log announces, and the expiry
 * sweep, all on one store. The configuration's `roles` say which of them a
 * process runs, so that at scale N processes share one PostgreSQL: every one
 * with `api` and `expiry`, one with `notifier`.
 */

import { headSignIntervalMsDefault, keepHeadSignerRunning } from "@mizan/eventsourcing"
import { keepNotifierRunning, type NotifierOptions, NotifierProgress } from "@mizan/notifier"
import { sign } from "@mizan/protocol"
import { Context, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { type GatewayConfig, type Role, roleNames } from "../config/config.ts"
import { runExpirySweeper } from "../expirySweeper.ts"
import { operatorRoutes, readyNotifierLagSecondsDefault } from "../health.ts"
import { ApiSettings } from "../pipeline/apiSettings.ts"
import { keepRecoveryRunning } from "../recovery.ts"
import { type GatewayOptions, type Listen, layerGatewayServices, layerHttp } from "./app.ts"
import { gatewayRoutes } from "./routes.ts"

export interface ServiceOptions extends GatewayOptions {
  readonly listen: Listen
  /** Notifier settings beyond the defaults (tests shorten timeouts). */
  readonly notifier?: Partial<Omit<NotifierOptions, "source" | "sign" | "mode" | "clocks" | "progress">>
  /** How often the notifier's process signs a head of the log, when it moved (tests shorten it). */
  readonly headSignIntervalMs?: number
}

/** The roles a configuration names; all three unless it names some. */
export const rolesOf = (config: GatewayConfig): ReadonlySet<Role> => new Set(config.roles ?? roleNames)

/** Runs the notifier and the expiry sweep, as the roles say, for as long as the layer lives. */
const layerBackground = (options: ServiceOptions, progress: NotifierProgress) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const gateway = yield* ApiSettings
      const roles = rolesOf(options.config)
      if (roles.has("notifier"))
        yield* Effect.forkScoped(
          keepNotifierRunning({
            ...options.notifier,
            sign: (body) => sign(body, gateway.servicePrivateKey),
            mode: gateway.mode,
            // One process, one view of every merchant's time: an advance moves the retries at once.
            clocks: gateway.clocks,
            progress,
          }),
        )
      if (roles.has("notifier"))
        // The log's signed heads (docs/architecture.md#a-tamper-evident-log), by one process of all on the store.
        yield* Effect.forkScoped(
          keepHeadSignerRunning(
            (payload) => sign(payload, gateway.servicePrivateKey),
            options.headSignIntervalMs ?? headSignIntervalMsDefault,
          ),
        )
      if (roles.has("expiry")) yield* Effect.forkScoped(runExpirySweeper)
      // Flows a crash cut between two appends, completed by one process of those with the expiry role.
      if (roles.has("expiry")) yield* Effect.forkScoped(keepRecoveryRunning)
    }),
  )

/** The service's layer: HTTP server and background work over shared services. */
export const layerService = (options: ServiceOptions) => {
  const services = layerGatewayServices(options)
  const roles = rolesOf(options.config)
  const progress = new NotifierProgress()
  const readiness = {
    notifier: roles.has("notifier") ? progress : undefined,
    notifierMaxLagSeconds: options.config.readyNotifierMaxLagSeconds ?? readyNotifierLagSecondsDefault,
  }
  const routes = Layer.mergeAll(
    operatorRoutes(readiness),
    roles.has("api") ? gatewayRoutes(options.config.mode, options.config.payPage) : Layer.empty,
  )
  return Layer.mergeAll(layerHttp(routes, options.listen, options.config), layerBackground(options, progress)).pipe(
    Layer.provideMerge(services),
    Layer.tap((context) => {
      const { address } = Context.get(context, HttpServer.HttpServer)
      if (address._tag !== "UnixPathAddress") Context.get(context, ApiSettings).listeningOn(address.port)
      return Effect.void
    }),
  )
}
