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
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { generateKeyPair, parsePublicKey, sign, verify } from "@mizan/protocol"
import { sendCreates, startGatewayProcess } from "./gatewayLoad.ts"
import { compare, describeMachine, formatTable, median, type RunCounts, type Workload } from "./harness.ts"

const requestsPerRun = 1_000
const concurrentRequests = Number(process.env.BENCH_CONCURRENCY ?? 32)
const counts: RunCounts = { warmupRuns: 1, measuredRuns: 5 }

const dataDir = mkdtempSync(join(tmpdir(), "mizan-bench-gateway-"))
const synchronous = process.env.BENCH_SQLITE_SYNCHRONOUS
const gateway = await startGatewayProcess({
  name: "config",
  dataDir,
  store: `sqlite:bench.db${synchronous ? `?synchronous=${synchronous}` : ""}`,
  nodeOptions: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
})
const servicePublicKey = parsePublicKey(readFileSync(join(dataDir, "service-public.pem"), "utf8"))

const latenciesMs: Array<number> = []

/** The `sign` header of an answer, whatever the case of its name (autocannon hands the names as sent). */
const signHeaderOf = (headers: Record<string, unknown> | undefined): string =>
  String(Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "sign")?.[1] ?? "")

let answered = 0
/** Sends a run's creates and checks each answer's head (and every 97th answer's signature). */
const sendAll = () =>
  sendCreates({
    baseUrl: gateway.baseUrl,
    connections: concurrentRequests,
    amount: requestsPerRun,
    onAnswer: (body, headers) =>
      ++answered % 97 === 0 && !verify(body, signHeaderOf(headers), servicePublicKey)
        ? "an answer whose signature does not verify"
        : undefined,
    onLatency: (ms) => latenciesMs.push(ms),
  })

const endToEnd: Workload = {
  name: `gateway: signed create orders, ${concurrentRequests} in flight`,
  operationsPerRun: requestsPerRun,
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
  await gateway.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
