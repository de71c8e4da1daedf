/**
 * What the gateway benchmarks share: the gateway as `npm start` runs it, in
 * a child process of its own (and the bare server beside it, `bareServer.ts`),
 * and a load of signed create-order requests (signed in a workload's untimed
 * setup, `createsFor`: the merchant's signing is not the gateway's work) sent
 * with autocannon. autocannon writes and parses
 * HTTP/1.1 on raw sockets: about a quarter of the CPU `fetch` spends per
 * request (57 against 256 µs, measured against a trivial server), which
 * matters because the load shares the machine's cores with the gateway.
 */

import { type ChildProcess, spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { withoutUndefined } from "@mizan/kernel"
import { generateKeyPair, sign } from "@mizan/protocol"
import autocannon from "autocannon"

export const benchMerchant = generateKeyPair()

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** A server the benchmark started as a child process: the gateway, or the bare server beside it. */
export interface ServerProcess {
  readonly child: ChildProcess
  readonly port: number
  readonly baseUrl: string
  /** Stops it as an operator would (SIGINT) and waits for it to exit. */
  readonly stop: () => Promise<void>
}

/** Runs `script` with this process's Node on a free port (`PORT`); resolves once `GET /health` answers. */
const startServerProcess = async (
  name: string,
  script: string,
  options: { readonly env?: Readonly<Record<string, string>>; readonly nodeOptions?: ReadonlyArray<string> },
): Promise<ServerProcess> => {
  const port = await freePort()
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), script], {
    env: { ...process.env, ...options.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  })
  const baseUrl = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGINT")
    await exited
  }
  for (let tries = 0; tries < 300; tries++) {
    const up = await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { child, port, baseUrl, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`${name} did not start`)
}

export interface GatewayProcessOptions {
  /** Its configuration file is `<name>.json` in `dataDir`. */
  readonly name: string
  readonly dataDir: string
  readonly store: string
  readonly roles?: ReadonlyArray<string>
  /** More environment: an OpenTelemetry collector, say. */
  readonly env?: Readonly<Record<string, string>>
  /** Node's own options (a CPU profile). */
  readonly nodeOptions?: ReadonlyArray<string>
  /**
   * The root of another copy of this repository (an earlier commit, with its
   * node_modules) whose gateway to run instead of this one's: how a change is
   * measured against the code before it in the same run.
   */
  readonly checkout?: string
}

/**
 * A sandbox gateway's configuration (as its JSON file holds it) on `store`,
 * with one merchant, BENCH, that no rate limit slows; the gateways of every
 * benchmark, in child processes and in this one (`sealingGateway.ts`).
 */
export const benchGatewayConfig = (store: string, roles?: ReadonlyArray<string>) => ({
  mode: "sandbox",
  store,
  ...withoutUndefined({ roles }),
  logging: { level: "warn" },
  merchants: [
    {
      partnerId: "BENCH",
      publicKeyPem: benchMerchant.publicKeyPem,
      grants: ["*"],
      rateLimit: { requestsPerSecond: 1_000_000, burstRequests: 1_000_000 },
    },
  ],
})

/** Starts `apps/gateway/src/startup/main.ts` on `benchGatewayConfig`; resolves once it answers. */
export const startGatewayProcess = (options: GatewayProcessOptions): Promise<ServerProcess> => {
  const configPath = join(options.dataDir, `${options.name}.json`)
  writeFileSync(configPath, JSON.stringify(benchGatewayConfig(options.store, options.roles)))
  const root = options.checkout ?? join(import.meta.dirname, "..", "..", "..")
  const main = join(root, "apps", "gateway", "src", "startup", "main.ts")
  return startServerProcess(options.name, main, {
    env: { ...options.env, MIZAN_CONFIG: configPath },
    ...withoutUndefined({ nodeOptions: options.nodeOptions }),
  })
}

/** How the bare server makes a commit durable (bareServer.ts): the gateway store's default, or FULL on the event loop. */
export type BareSynchronous = "full-offloaded" | "full"

/** What serves the bare server's requests (bareServer.ts): `node:http` itself, or effect/http on it. */
export type BareEdge = "node-http" | "effect-http"

/** What the bare server does for a create (bareServer.ts): the work no design can skip, or the gateway's work as plain functions (bareGatewayWork.ts). */
export type BareWork = "minimal" | "gateway"

/**
 * Starts `src/bareServer.ts` (the ceiling beside the gateway: verify, decide
 * on a unique index, group commit made durable as `synchronous` says, sign
 * in the thread pool) on a fresh SQLite file in `dataDir`, signing with
 * `servicePrivateKeyPem`, taking BENCH's requests through `edge` and doing
 * `work` for each.
 */
export const startBareServerProcess = (
  dataDir: string,
  servicePrivateKeyPem: string,
  synchronous: BareSynchronous,
  env: Readonly<Record<string, string>> = {},
  edge: BareEdge = "node-http",
  work: BareWork = "minimal",
): Promise<ServerProcess> => {
  const serviceKeyFile = join(dataDir, "bare-service-private.pem")
  const merchantKeyFile = join(dataDir, "bare-merchant-public.pem")
  writeFileSync(serviceKeyFile, servicePrivateKeyPem, { mode: 0o600 })
  writeFileSync(merchantKeyFile, benchMerchant.publicKeyPem)
  const name = `${synchronous}, ${edge}${work === "minimal" ? "" : `, ${work} work`}`
  return startServerProcess(`the bare server (${name})`, join(import.meta.dirname, "bareServer.ts"), {
    env: {
      ...env,
      BARE_DB: join(dataDir, `bare-${synchronous}-${edge}-${work}.db`),
      BARE_EDGE: edge,
      BARE_WORK: work,
      BARE_SYNCHRONOUS: synchronous,
      BARE_SERVICE_KEY: serviceKeyFile,
      BARE_MERCHANT_KEY: merchantKeyFile,
    },
  })
}

export interface SignedRequest {
  readonly body: string
  readonly sign: string
}

let serial = 0
/**
 * `count` create-order requests with merchant order numbers never used
 * before, signed by BENCH; `moreOf(n)` adds fields to the `n`th order's
 * content (a payer, say).
 */
export const signedCreates = (
  count: number,
  moreOf: (n: number) => Readonly<Record<string, unknown>> = () => ({}),
): Array<SignedRequest> =>
  Array.from({ length: count }, () => {
    const n = ++serial
    const body = JSON.stringify({
      requestTime: Date.now(),
      bizContent: {
        merchantOrderNo: `bench-${process.pid}-${n}`,
        subject: "Bench order",
        totalAmount: { amount: 10.5, currency: "AED" },
        paySceneCode: "PAYPAGE",
        notifyUrl: "https://merchant.example/notify",
        ...moreOf(n),
      },
    })
    return { body, sign: sign(body, benchMerchant.privateKey) }
  })

/**
 * The requests one load of `amount` creates over `connections` sends:
 * autocannon builds one request more per connection than it sends (the next
 * one, when the run ends). Made in a workload's untimed `setup`, so that the
 * merchant's signing, on this process's core, is not in the timed run.
 */
export const createsFor = (amount: number, connections: number): Array<SignedRequest> =>
  signedCreates(amount + connections)

export interface CreateLoad {
  readonly baseUrl: string
  readonly connections: number
  readonly amount: number
  /** `createsFor(amount, connections)`, signed before the clock started. */
  readonly requests: ReadonlyArray<SignedRequest>
  /** Called with each answer's body and headers; answers whose head is not "0" fail the run either way. */
  readonly onAnswer?: (body: string, headers: Record<string, unknown> | undefined) => string | undefined
  /** Called with each request's latency. */
  readonly onLatency?: (ms: number) => void
}

/**
 * Sends `amount` signed creates, `connections` at a time over keep-alive
 * connections; fails when any is refused, errs or is not answered.
 */
export const sendCreates = async (load: CreateLoad): Promise<void> => {
  const { requests } = load
  if (requests.length < load.amount + load.connections)
    throw new Error(
      `sendCreates needs ${load.amount + load.connections} signed requests (createsFor), not ${requests.length}`,
    )
  let next = 0
  let answered = 0
  const refused: Array<string> = []
  const instance = autocannon({
    url: load.baseUrl,
    connections: load.connections,
    amount: load.amount,
    // autocannon notices the last answer at its next sample, every second by default: that would end each run late.
    sampleInt: 5,
    // autocannon gives up on a request after 10 s by default: on a machine other sessions load, a
    // saturated server's slowest answers take longer, and the run would fail instead of saying so in p99.
    timeout: 60,
    requests: [
      {
        method: "POST",
        path: "/sgs/api/acquire2/placeOrder",
        setupRequest: (request) => {
          const signed = requests[next++]
          if (signed === undefined) throw new Error("autocannon asked for more requests than were signed")
          return {
            ...request,
            body: signed.body,
            headers: { "content-type": "application/json", "partner-id": "BENCH", sign: signed.sign },
          }
        },
        onResponse: (_status, body, _context, headers) => {
          answered++
          const problem = body.includes('"code":"0"') ? load.onAnswer?.(body, headers) : body.slice(0, 200)
          if (problem !== undefined) refused.push(problem)
        },
      },
    ],
  })
  const { onLatency } = load
  if (onLatency !== undefined)
    // autocannon's "response" event passes the client first, then status, bytes and the time taken.
    (instance as unknown as NodeJS.EventEmitter).on(
      "response",
      (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) => onLatency(responseTimeMs),
    )
  const result = await instance
  if (refused.length > 0) throw new Error(`${load.baseUrl}: ${refused.length} creates refused, first: ${refused[0]}`)
  if (result.errors > 0 || result.non2xx > 0 || answered !== load.amount)
    throw new Error(
      `${load.baseUrl}: ${answered} of ${load.amount} answered, ${result.errors} errors, ${result.non2xx} not 2xx`,
    )
}
