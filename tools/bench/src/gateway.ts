/**
 * `npm run bench -- gateway`: signed create-order requests per second end
 * to end, beside two ceilings measured in the same run:
 *
 * - bare RSA-2048 signing on one core: every answer is signed with the
 *   service's key, so one core's signing rate is what a create can cost at
 *   least. Goal: the gateway at 0.80 of it, p99 at most 50 ms with 128 in
 *   flight.
 * - the bare server (`src/bareServer.ts`): `node:http` that verifies the
 *   request's signature, decides on a unique index, commits durably with
 *   group commit in node:sqlite and signs in the thread pool: the work no
 *   design can skip, with nothing else. The ceiling commits as the
 *   gateway's store does by default (`full-offloaded`: NORMAL, then
 *   `fdatasync` of the log in the thread pool before answering, the same
 *   durability as FULL); a second bare server commits at FULL, syncing on
 *   its event loop, for what that costs.
 * - the bare server through effect/http (`BARE_EDGE=effect-http`, at the
 *   ceiling's durability): the same work with Effect's router, a fiber per
 *   request and the signing as Effect steps; what the framework the gateway
 *   is built on costs a request before any of the gateway's own layers.
 * - the bare server doing the gateway's work through effect/http
 *   (`BARE_WORK=gateway`, `src/bareGatewayWork.ts`): the wire's schemas,
 *   the domain's decision, sealing, the store's encoding and chain hashes,
 *   the pay token, each the library's own function called as a plain
 *   function. What a create costs the gateway beyond that is its layering
 *   (fibers, services, wrappers); what this costs beyond the effect/http
 *   server is the work the gateway's users rely on.
 * - the same gateway's work on node:http (`BARE_EDGE=node-http
 *   BARE_WORK=gateway`): whether effect/http, which the gateway keeps, is
 *   what holds the work's ceiling down.
 *
 * Both servers run as child processes (the gateway as `npm start` does, on
 * the embedded SQLite store at its default durability, the notifier and the
 * expiry sweep running); this process sends requests signed before the clock
 * starts, 32 and 128 at a time, and checks every answer (`code` 0, every
 * 97th answer's signature verified). Runs of every workload alternate; the
 * latencies of the warm-up runs are left out of the percentiles.
 *
 * `BENCH_REQUESTS` (default 4,000 a run), `BENCH_IN_FLIGHT` (default
 * `32,128`), `BENCH_SQLITE_SYNCHRONOUS=normal` (the gateway's store),
 * `BENCH_BARE_SYNCHRONOUS` (the bare servers, default
 * `full-offloaded,full`: the first named is the ceiling),
 * `BENCH_PROFILE=DIR` (the gateway's CPU profile), `BENCH_GATEWAY_ONLY=1`
 * (no bare server: for a profile of the gateway alone) and
 * `BENCH_UV_THREADPOOL_SIZE` (the thread pool of this gateway and the bare
 * server; the gateway sizes its own otherwise) and `BENCH_GATEWAY_ROLES`
 * (this gateway's roles, e.g. `api`: what the notifier and the expiry
 * sweep, following the log in the same process, cost it) change the run.
 * `BENCH_GATEWAY_BEFORE=DIR` runs a second gateway from DIR, another copy of
 * the repository (an earlier commit with its node_modules), on a store of
 * its own, with that code's own defaults (its thread pool included), and
 * prints this gateway's rate over that one's: a change measured against the
 * code before it in the same run.
 */

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { withoutUndefined } from "@mizan/kernel"
import { generateKeyPair, type PublicKey, parsePublicKey, sign, verify } from "@mizan/protocol"
import {
  type BareEdge,
  type BareSynchronous,
  type BareWork,
  createsFor,
  type ServerProcess,
  type SignedRequest,
  sendCreates,
  startBareServerProcess,
  startGatewayProcess,
} from "./gatewayLoad.ts"
import {
  type Comparison,
  comparisonOf,
  describeMachine,
  formatTable,
  latenciesOf,
  type Measurement,
  measureTogether,
  median,
  type RunCounts,
  type Workload,
} from "./harness.ts"

const requestsPerRun = Number(process.env.BENCH_REQUESTS ?? 4_000)
const inFlightCounts = (process.env.BENCH_IN_FLIGHT ?? "32,128").split(",").map(Number)
const counts: RunCounts = { warmupRuns: 1, measuredRuns: 5 }
const goalRatio = 0.8
const p99GoalMs = 50
const p99GoalInFlight = 128

const dataDir = mkdtempSync(join(tmpdir(), "mizan-bench-gateway-"))
const threadPool = process.env.BENCH_UV_THREADPOOL_SIZE
const threadPoolEnv: Record<string, string> = withoutUndefined({ UV_THREADPOOL_SIZE: threadPool })
const synchronous = process.env.BENCH_SQLITE_SYNCHRONOUS
const servers: Array<ServerProcess> = []

const bareLevelsKnown: ReadonlyArray<BareSynchronous> = ["full-offloaded", "full"]
/** The bare servers to run, the first the gateway's ceiling. */
const bareLevels = (process.env.BENCH_BARE_SYNCHRONOUS ?? bareLevelsKnown.join(",")).split(",").map((level) => {
  const known = bareLevelsKnown.find((k) => k === level)
  if (known === undefined)
    throw new Error(`BENCH_BARE_SYNCHRONOUS names ${bareLevelsKnown.join(" and ")}, comma-separated, not "${level}"`)
  return known
})

/** The `sign` header of an answer, whatever the case of its name (autocannon hands the names as sent). */
const signHeaderOf = (headers: Record<string, unknown> | undefined): string =>
  String(Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "sign")?.[1] ?? "")

/** The public key a gateway made on its first start, beside its configuration. */
const gatewayKeyIn = (dir: string) => parsePublicKey(readFileSync(join(dir, "service-public.pem"), "utf8"))

/**
 * CPU time a server process has run so far, in nanoseconds, from the
 * kernel's scheduler statistics (`/proc/PID/task/TID/schedstat`, whose first
 * field is the time on a CPU): its main thread (the event loop, whose thread
 * id is the process id) and all its threads (the thread pool's signing
 * included). Unlike a rate, the CPU a request costs hardly moves when other
 * processes busy the machine, so it compares two builds on a loaded machine.
 */
const cpuNsOf = (pid: number): { readonly mainNs: number; readonly allNs: number } => {
  const onCpuNs = (tid: string) => {
    try {
      return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0])
    } catch {
      return 0 // a thread that ended between the listing and the read
    }
  }
  const tids = readdirSync(`/proc/${pid}/task`)
  return { mainNs: onCpuNs(String(pid)), allNs: tids.reduce((sum, tid) => sum + onCpuNs(tid), 0) }
}

/** A load workload on one server at one count in flight, keeping the latencies and CPU of its measured runs. */
interface LoadWorkload extends Workload<ReadonlyArray<SignedRequest>> {
  readonly inFlight: number
  readonly latenciesMs: Array<number>
  /** The server's CPU per request in each measured run, in microseconds: its event loop's and all its threads'. */
  readonly cpuUsPerRequest: Array<{ readonly mainUs: number; readonly allUs: number }>
}

const loadOn = (label: string, server: ServerProcess, publicKey: PublicKey, inFlight: number): LoadWorkload => {
  const latenciesMs: Array<number> = []
  const cpuUsPerRequest: LoadWorkload["cpuUsPerRequest"] = []
  const pid = server.child.pid ?? 0
  let answered = 0
  return {
    name: `${label}: signed create orders, ${inFlight} in flight`,
    operationsPerRun: requestsPerRun,
    inFlight,
    latenciesMs,
    cpuUsPerRequest,
    setup: () => createsFor(requestsPerRun, inFlight),
    run: async (requests, { measured }) => {
      const cpuBefore = cpuNsOf(pid)
      await sendCreates({
        baseUrl: server.baseUrl,
        connections: inFlight,
        amount: requestsPerRun,
        requests,
        onAnswer: (body, headers) =>
          ++answered % 97 === 0 && !verify(body, signHeaderOf(headers), publicKey)
            ? "an answer whose signature does not verify"
            : undefined,
        ...(measured ? { onLatency: (ms: number) => latenciesMs.push(ms) } : {}),
      })
      const cpuAfter = cpuNsOf(pid)
      if (measured)
        cpuUsPerRequest.push({
          mainUs: (cpuAfter.mainNs - cpuBefore.mainNs) / 1_000 / requestsPerRun,
          allUs: (cpuAfter.allNs - cpuBefore.allNs) / 1_000 / requestsPerRun,
        })
    },
  }
}

/** The first ceiling: signing answer-sized bodies with an RSA-2048 key, on one core. */
const answerSized = readFileSync(new URL(import.meta.url))
  .subarray(0, 1_400)
  .toString("utf8")
const { privateKey: serviceLikeKey } = generateKeyPair()
const bareSigning: Workload = {
  name: "bare RSA-2048 signing (SHA256withRSA), one core",
  operationsPerRun: requestsPerRun,
  run: () => {
    for (let i = 0; i < requestsPerRun; i++) sign(`${answerSized}${i}`, serviceLikeKey)
  },
}

try {
  const gateway = await startGatewayProcess({
    name: "config",
    dataDir,
    store: `sqlite:bench.db${synchronous ? `?synchronous=${synchronous}` : ""}`,
    env: threadPoolEnv,
    nodeOptions: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
    ...withoutUndefined({ roles: process.env.BENCH_GATEWAY_ROLES?.split(",") }),
  })
  servers.push(gateway)
  const gatewayKey = gatewayKeyIn(dataDir)
  const gatewayLoads = inFlightCounts.map((n) => loadOn("gateway", gateway, gatewayKey, n))
  const checkoutBefore = process.env.BENCH_GATEWAY_BEFORE
  const beforeDir = join(dataDir, "before")
  if (checkoutBefore !== undefined) mkdirSync(beforeDir)
  const beforeLoads =
    checkoutBefore === undefined
      ? []
      : await startGatewayProcess({
          name: "before",
          dataDir: beforeDir,
          store: `sqlite:before.db${synchronous ? `?synchronous=${synchronous}` : ""}`,
          checkout: checkoutBefore,
        }).then((before) => {
          servers.push(before)
          return inFlightCounts.map((n) => loadOn("gateway before", before, gatewayKeyIn(beforeDir), n))
        })
  const bareKeys = generateKeyPair()
  /** Each bare server's loads, one per count in flight; the first server's are the ceiling. */
  const bareLoadsByLevel: Array<ReadonlyArray<LoadWorkload>> = []
  for (const level of process.env.BENCH_GATEWAY_ONLY === "1" ? [] : bareLevels) {
    const bare = await startBareServerProcess(dataDir, bareKeys.privateKeyPem, level, threadPoolEnv)
    servers.push(bare)
    bareLoadsByLevel.push(inFlightCounts.map((n) => loadOn(`bare server (${level})`, bare, bareKeys.publicKey, n)))
  }
  const [ceilingLoads = [], secondBareLoads = []] = bareLoadsByLevel
  const [ceilingLevel] = bareLevels
  /** A bare server at the ceiling's durability on another edge or doing other work, loaded at each count in flight. */
  const ceilingVariantLoads = async (edge: BareEdge, work: BareWork, label: string) => {
    if (process.env.BENCH_GATEWAY_ONLY === "1" || ceilingLevel === undefined) return []
    const bare = await startBareServerProcess(dataDir, bareKeys.privateKeyPem, ceilingLevel, threadPoolEnv, edge, work)
    servers.push(bare)
    return inFlightCounts.map((n) => loadOn(`bare server (${ceilingLevel}${label})`, bare, bareKeys.publicKey, n))
  }
  const effectEdgeLoads = await ceilingVariantLoads("effect-http", "minimal", ", effect/http")
  // The gateway's work as plain functions (bareGatewayWork.ts), served as the gateway is: what its layering costs.
  const gatewayWorkLoads = await ceilingVariantLoads("effect-http", "gateway", ", effect/http, the gateway's work")
  // The same work on node:http: whether effect/http, which the gateway keeps, is what holds the work's ceiling down.
  const nodeGatewayWorkLoads = await ceilingVariantLoads("node-http", "gateway", ", the gateway's work")
  const allBareLoads = [...bareLoadsByLevel.flat(), ...effectEdgeLoads, ...gatewayWorkLoads, ...nodeGatewayWorkLoads]
  const workloads = [...gatewayLoads, ...beforeLoads, ...allBareLoads, bareSigning] as ReadonlyArray<Workload<unknown>>
  const measurements = await measureTogether(workloads, counts)
  const measurementOf = (workload: unknown): Measurement | undefined =>
    measurements[workloads.indexOf(workload as Workload)]
  const signing = measurementOf(bareSigning)
  const comparisons: Array<Comparison> = []
  for (const [i, load] of gatewayLoads.entries()) {
    comparisons.push(comparisonOf(measurementOf(load), signing, "requests", goalRatio))
    const bare = ceilingLoads[i]
    if (bare !== undefined) comparisons.push(comparisonOf(measurementOf(load), measurementOf(bare), "requests"))
    const before = beforeLoads[i]
    if (before !== undefined) comparisons.push(comparisonOf(measurementOf(load), measurementOf(before), "requests"))
  }
  for (const bare of allBareLoads) comparisons.push(comparisonOf(measurementOf(bare), signing, "requests"))
  for (const [i, bare] of ceilingLoads.entries()) {
    const other = secondBareLoads[i]
    if (other !== undefined) comparisons.push(comparisonOf(measurementOf(bare), measurementOf(other), "requests"))
  }
  // What effect/http costs the bare server's work, and what the gateway's own layers cost on top of it.
  for (const [i, throughEffect] of effectEdgeLoads.entries()) {
    const bare = ceilingLoads[i]
    if (bare !== undefined)
      comparisons.push(comparisonOf(measurementOf(throughEffect), measurementOf(bare), "requests"))
    const gateway = gatewayLoads[i]
    if (gateway !== undefined)
      comparisons.push(comparisonOf(measurementOf(gateway), measurementOf(throughEffect), "requests"))
  }
  // What the gateway's work costs on the framework, and what its layering costs above that work.
  for (const [i, gatewayWork] of gatewayWorkLoads.entries()) {
    const throughEffect = effectEdgeLoads[i]
    if (throughEffect !== undefined)
      comparisons.push(comparisonOf(measurementOf(gatewayWork), measurementOf(throughEffect), "requests"))
    const gateway = gatewayLoads[i]
    if (gateway !== undefined)
      comparisons.push(comparisonOf(measurementOf(gateway), measurementOf(gatewayWork), "requests"))
  }
  // The work's share of the bare node:http server, and what effect/http costs the work.
  for (const [i, onNode] of nodeGatewayWorkLoads.entries()) {
    const bare = ceilingLoads[i]
    if (bare !== undefined) comparisons.push(comparisonOf(measurementOf(onNode), measurementOf(bare), "requests"))
    const throughEffect = gatewayWorkLoads[i]
    if (throughEffect !== undefined)
      comparisons.push(comparisonOf(measurementOf(throughEffect), measurementOf(onNode), "requests"))
  }
  console.log(formatTable(comparisons))
  console.log(`\nlatency over the measured runs (${counts.measuredRuns} of ${requestsPerRun} requests each):`)
  for (const load of [...gatewayLoads, ...beforeLoads, ...allBareLoads]) {
    const { p50, p99, max } = latenciesOf(load.latenciesMs)
    const goal =
      load.inFlight === p99GoalInFlight && gatewayLoads.includes(load)
        ? ` (goal <= ${p99GoalMs} ms: ${p99 <= p99GoalMs ? "met" : "MISSED"})`
        : ""
    console.log(`- ${load.name}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms${goal}, max ${max.toFixed(1)} ms`)
  }
  console.log("\nthe server's CPU per request, medians of the measured runs (event loop / all threads):")
  const cpuOf = (load: LoadWorkload) => ({
    mainUs: median(load.cpuUsPerRequest.map((c) => c.mainUs)),
    allUs: median(load.cpuUsPerRequest.map((c) => c.allUs)),
  })
  for (const load of [...gatewayLoads, ...beforeLoads, ...allBareLoads]) {
    const { mainUs, allUs } = cpuOf(load)
    console.log(`- ${load.name}: ${mainUs.toFixed(0)} µs / ${allUs.toFixed(0)} µs`)
  }
  for (const [i, load] of gatewayLoads.entries()) {
    const before = beforeLoads[i]
    if (before === undefined) continue
    const [now, then] = [cpuOf(load), cpuOf(before)]
    console.log(
      `- event-loop CPU per request, gateway over gateway before, ${load.inFlight} in flight: ${(now.mainUs / then.mainUs).toFixed(2)} (all threads ${(now.allUs / then.allUs).toFixed(2)})`,
    )
  }
  console.log(`\nrates of each measured run (requests/s):`)
  for (const m of measurements) console.log(`- ${m.name}: ${m.runsOperationsPerSecond.map(Math.round).join(", ")}`)
  console.log(describeMachine())
} finally {
  for (const server of servers) await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
