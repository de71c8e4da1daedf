/**
 * `npm run bench -- gateway`: signed create-order requests per second end
 * to end, beside the bare RSA-2048 signing rate measured in the same run
 * (issue 5). Every answer is signed with the service's RSA-2048 key, so one
 * core's signing rate is the gateway's ceiling; the ratio says how much of
 * it survives the rest of the work (verifying the request's signature,
 * parsing, deciding, the durable append, encoding). Goal: 0.60. The p99
 * latency of the requests is printed too.
 *
 * The gateway runs as `npm start` does (apps/gateway/src/main.ts, one
 * process, so one core for its JavaScript, on the embedded SQLite store at
 * its default durability) in a child process; this process only sends
 * requests signed before the clock starts, `concurrentRequests` at a time
 * (32, or `BENCH_CONCURRENCY`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { generateKeyPair, parsePublicKey, sign, verify } from "@mizan/protocol"
import autocannon from "autocannon"
import { compare, describeMachine, formatTable, median, type RunCounts, type Workload } from "./harness.ts"

const requestsPerRun = 1_000
const concurrentRequests = Number(process.env.BENCH_CONCURRENCY ?? 32)
const counts: RunCounts = { warmupRuns: 1, measuredRuns: 5 }

const dataDir = mkdtempSync(join(tmpdir(), "mizan-bench-gateway-"))
const merchant = generateKeyPair()

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const startGateway = async (): Promise<{ child: ChildProcess; baseUrl: string }> => {
  const port = await freePort()
  writeFileSync(
    join(dataDir, "config.json"),
    JSON.stringify({
      mode: "sandbox",
      store: `sqlite:bench.db${process.env.BENCH_SQLITE_SYNCHRONOUS ? `?synchronous=${process.env.BENCH_SQLITE_SYNCHRONOUS}` : ""}`,
      merchants: [
        {
          partnerId: "BENCH",
          publicKeyPem: merchant.publicKeyPem,
          grants: ["*"],
          rateLimit: { requestsPerSecond: 1_000_000, burstRequests: 1_000_000 },
        },
      ],
    }),
  )
  const main = join(import.meta.dirname, "..", "..", "..", "apps", "gateway", "src", "main.ts")
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), main],
    {
      env: { ...process.env, MIZAN_CONFIG: join(dataDir, "config.json"), PORT: String(port) },
      stdio: ["ignore", "ignore", "inherit"],
    },
  )
  const baseUrl = `http://127.0.0.1:${port}`
  for (let tries = 0; tries < 200; tries++) {
    const up = await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { child, baseUrl }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("the gateway did not start")
}

const gateway = await startGateway()
const servicePublicKey = parsePublicKey(readFileSync(join(dataDir, "service-public.pem"), "utf8"))

interface SignedRequest {
  readonly body: string
  readonly sign: string
}

let serial = 0
/**
 * A run's requests, signed before the clock starts: the merchant's signing
 * is not the gateway's work. autocannon builds one request more per
 * connection than it sends (the next one, when the run ends), hence the spares.
 */
const signedCreates = (): Array<SignedRequest> =>
  Array.from({ length: requestsPerRun + concurrentRequests }, () => {
    const body = JSON.stringify({
      requestTime: Date.now(),
      bizContent: {
        merchantOrderNo: `bench-${process.pid}-${++serial}`,
        subject: "Bench order",
        totalAmount: { amount: 10.5, currency: "AED" },
        paySceneCode: "PAYPAGE",
        notifyUrl: "https://merchant.example/notify",
      },
    })
    return { body, sign: sign(body, merchant.privateKey) }
  })

const latenciesMs: Array<number> = []

/** The `sign` header of an answer, whatever the case of its name (autocannon hands the names as sent). */
const signHeaderOf = (headers: Record<string, unknown> | undefined): string =>
  String(Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "sign")?.[1] ?? "")

/**
 * Sends the requests `concurrentRequests` at a time over keep-alive
 * connections with autocannon, and checks each answer's head (and every
 * 97th answer's signature). autocannon writes and parses HTTP/1.1 on raw
 * sockets: about a quarter of the CPU `fetch` spends per request (57 against
 * 256 µs, measured against a trivial server), which
 * matters here because the load generator shares the machine's two cores
 * with the gateway.
 */
const sendAll = async (requests: ReadonlyArray<SignedRequest>) => {
  let next = 0
  let answered = 0
  const refused: Array<string> = []
  const instance = autocannon({
    url: gateway.baseUrl,
    connections: concurrentRequests,
    amount: requestsPerRun,
    // autocannon notices the last answer at its next sample, every second by default: that would end each run late.
    sampleInt: 5,
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
          if (!body.includes('"code":"0"')) refused.push(body.slice(0, 200))
          else if (answered % 97 === 0 && !verify(body, signHeaderOf(headers), servicePublicKey))
            refused.push("an answer whose signature does not verify")
        },
      },
    ],
  })
  // README: the tracker's "response" event passes the client first, then status, bytes and the time taken.
  ;(instance as unknown as NodeJS.EventEmitter).on(
    "response",
    (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) => latenciesMs.push(responseTimeMs),
  )
  const result = await instance
  if (refused.length > 0) throw new Error(`the gateway refused ${refused.length} creates, first: ${refused[0]}`)
  if (result.errors > 0 || result.non2xx > 0 || answered !== requestsPerRun)
    throw new Error(`${answered} of ${requestsPerRun} answered, ${result.errors} errors, ${result.non2xx} not 2xx`)
}

const endToEnd: Workload<Array<SignedRequest>> = {
  name: `gateway: signed create orders, ${concurrentRequests} in flight`,
  operationsPerRun: requestsPerRun,
  setup: signedCreates,
  run: sendAll,
}

/** The ceiling: signing answer-sized bodies with an RSA-2048 key, on one core. */
const answerSized = readFileSync(new URL(import.meta.url))
  .subarray(0, 1_400)
  .toString("utf8")
const { privateKey: serviceLikeKey } = generateKeyPair()
const bareSigning: Workload = {
  name: "bare RSA-2048 signing (SHA256withRSA)",
  operationsPerRun: requestsPerRun,
  run: () => {
    for (let i = 0; i < requestsPerRun; i++) sign(`${answerSized}${i}`, serviceLikeKey)
  },
}

try {
  const comparison = await compare(endToEnd, bareSigning, { unit: "requests", goalRatio: 0.6, counts })
  const sorted = [...latenciesMs].sort((a, b) => a - b)
  const percentile = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
  console.log(formatTable([comparison]))
  console.log(
    `\nlatency over ${sorted.length} requests: median ${median(sorted).toFixed(1)} ms, p99 ${percentile(99).toFixed(1)} ms, max ${percentile(100).toFixed(1)} ms`,
  )
  console.log(describeMachine())
} finally {
  gateway.child.kill("SIGINT")
  await new Promise((resolve) => gateway.child.once("exit", resolve))
  rmSync(dataDir, { recursive: true, force: true })
}
