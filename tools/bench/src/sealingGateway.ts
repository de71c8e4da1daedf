/**
 * The gateway's create order over a sealed and over a plain store, for
 * `npm run bench -- sealing`. The sealed side is the product's own
 * composition (`layerGatewayServices`, apps/gateway/src/startup/app.ts: the gateway
 * always seals); the plain side is the same services over the bare SQLite
 * store (`layerGatewayServicesOver`), a composition only this benchmark
 * builds. Each serves the gateway's routes in this process as a web
 * handler: the request's signature, decoding, the decision, the durable
 * append, encoding and the answer's signature, all of it but the socket,
 * so that no HTTP client shares the process's time with what is measured.
 */
import { createHash } from "node:crypto"
import { layerInstrumentedEventStore } from "@mizan/eventsourcing"
import { type GatewayOptions, layerGatewayServices, layerGatewayServicesOver } from "@mizan/gateway/app"
import { decodeConfig } from "@mizan/gateway/config"
import { gatewayRoutes } from "@mizan/gateway/routes"
import { layerSqlite } from "@mizan/store-sqlite"
import { Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { benchGatewayConfig, type SignedRequest, signedCreates } from "./gatewayLoad.ts"
import type { Workload } from "./harness.ts"
import { removeFile, tempFile } from "./storeSetUp.ts"

export interface InProcessGateway {
  readonly sealed: boolean
  readonly handle: (request: Request) => Promise<Response>
  readonly close: () => Promise<void>
}

/** A sandbox gateway with one merchant, BENCH, that no rate limit slows, on a new SQLite file: sealed, or plain. */
export const startInProcessGateway = (sealed: boolean): InProcessGateway => {
  const file = tempFile("mizan-bench-sealing-gateway-")
  const config = decodeConfig(benchGatewayConfig(`sqlite:${file.path}`))
  // The master key file the sealed side makes goes beside the store, in the folder removed at close.
  const options: GatewayOptions = { config, baseDir: file.dir }
  const routes = gatewayRoutes(config.mode).pipe(Layer.provide(HttpServer.layerServices))
  const app = sealed
    ? HttpRouter.toWebHandler(routes.pipe(Layer.provide(layerGatewayServices(options))), { disableLogger: true })
    : HttpRouter.toWebHandler(
        routes.pipe(
          Layer.provide(
            layerGatewayServicesOver(
              options,
              layerInstrumentedEventStore.pipe(Layer.provideMerge(layerSqlite(file.path))),
            ),
          ),
        ),
        { disableLogger: true },
      )
  return {
    sealed,
    handle: (request) => app.handler(request),
    close: async () => {
      await app.dispose()
      removeFile(file)
    },
  }
}

/**
 * Who the creates name as their payer, which decides what sealing does:
 * - `none`: no personal field: the sealer walks `OrderCreated`'s plan and
 *   finds nothing to seal (no cipher, no key);
 * - `oneEid`: every create names one payer by its eid (sent as its SHA-256
 *   hex, as the wire allows), whose data key is made once and then cached;
 * - `newEmail`: every create names a new payer by an email and a customer
 *   id, without an eid: the order's own payer subject, a new data key each
 *   (wrapped and written to the key table).
 */
export type CreatesPayer = "none" | "oneEid" | "newEmail"

const sceneParamsOf = (payer: CreatesPayer, n: number) => {
  switch (payer) {
    case "none":
      return {}
    case "oneEid":
      return { paySceneParams: { eid: createHash("sha256").update("784199012345671").digest("hex") } }
    case "newEmail":
      return { paySceneParams: { email: `payer-${n}@example.ae`, customerId: `customer-${n}` } }
  }
}

/** Sends `creates` to `gateway`, `inFlight` at a time; fails on any answer whose head is not "0". */
const sendAll = async (gateway: InProcessGateway, creates: ReadonlyArray<SignedRequest>, inFlight: number) => {
  let next = 0
  const sender = async () => {
    while (next < creates.length) {
      const create = creates[next++] as SignedRequest
      const response = await gateway.handle(
        new Request("http://127.0.0.1/sgs/api/acquire2/placeOrder", {
          method: "POST",
          body: create.body,
          headers: { "content-type": "application/json", "partner-id": "BENCH", sign: create.sign },
        }),
      )
      const answer = await response.text()
      if (!answer.includes('"code":"0"')) throw new Error(`a create order was not taken: ${answer.slice(0, 200)}`)
    }
  }
  await Promise.all(Array.from({ length: inFlight }, sender))
}

const payerWords: Record<CreatesPayer, string> = {
  none: "no payer",
  oneEid: "one payer's eid",
  newEmail: "a new payer's email each",
}

/** `createsPerRun` signed create orders naming `payer` through `gateway`, `inFlight` at a time. */
export const gatewayCreates = (
  gateway: InProcessGateway,
  payer: CreatesPayer,
  createsPerRun: number,
  inFlight: number,
): Workload<ReadonlyArray<SignedRequest>> => ({
  name: `${gateway.sealed ? "sealed" : "plain"}: gateway creates in process, ${payerWords[payer]}, ${inFlight} in flight`,
  operationsPerRun: createsPerRun,
  setup: () => signedCreates(createsPerRun, (n) => sceneParamsOf(payer, n)),
  run: (creates) => sendAll(gateway, creates, inFlight),
})
