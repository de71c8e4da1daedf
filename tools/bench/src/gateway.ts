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
 * requests signed before the clock starts, `concurrentRequests` at a time.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { generateKeyPair, parsePublicKey, sign, verify } from "@mizan/protocol"
import { compare, describeMachine, formatTable, median, type RunCounts, type Workload } from "./harness.ts"

const requestsPerRun = 1_000
const concurrentRequests = 32
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
/** A run's requests, signed before the clock starts: the merchant's signing is not the gateway's work. */
const signedCreates = (): Array<SignedRequest> =>
  Array.from({ length: requestsPerRun }, () => {
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

/** Sends the requests `concurrentRequests` at a time and checks each answer's head and signature. */
const sendAll = async (requests: ReadonlyArray<SignedRequest>) => {
  let next = 0
  const lane = async () => {
    while (next < requests.length) {
      const request = requests[next++] as SignedRequest
      const started = performance.now()
      const response = await fetch(`${gateway.baseUrl}/sgs/api/acquire2/placeOrder`, {
        method: "POST",
        body: request.body,
        headers: { "content-type": "application/json", "partner-id": "BENCH", sign: request.sign },
      })
      const text = await response.text()
      latenciesMs.push(performance.now() - started)
      if (!text.includes('"code":"0"')) throw new Error(`the gateway refused a create: ${text.slice(0, 200)}`)
      if (next % 97 === 0 && !verify(text, response.headers.get("sign"), servicePublicKey))
        throw new Error("an answer's signature does not verify")
    }
  }
  await Promise.all(Array.from({ length: concurrentRequests }, lane))
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
