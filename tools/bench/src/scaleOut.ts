/**
 * `npm run bench -- scaleOut`: signed creates per second through two
 * gateway processes on one PostgreSQL database, beside one gateway process
 * on the same database, measured in the same run (their runs alternate).
 * The gateways run with roles api and expiry, as the production topology
 * does; the load is autocannon, `connectionsTotal` connections in all, split
 * evenly over the gateways of a run. The machine has two cores, which the
 * gateways, PostgreSQL and the load share: the run also reports the share of
 * the CPU time PostgreSQL's own processes took during the two-gateway runs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { durableServerSettings, startEmbeddedPostgres } from "@mizan/store-postgres/testing"
import { type CreateLoad, createsFor, type ServerProcess, sendCreates, startGatewayProcess } from "./gatewayLoad.ts"
import { compare, describeMachine, formatTable, type RunCounts, type Workload } from "./harness.ts"

const requestsPerRun = 2_000
const connectionsTotal = 32
const counts: RunCounts = { warmupRuns: 1, measuredRuns: 3 }

const dataDir = mkdtempSync(join(tmpdir(), "mizan-bench-scale-out-"))

/** A run's requests, signed before the clock starts: one share per gateway. */
const splitLoad = (gateways: ReadonlyArray<ServerProcess>) =>
  gateways.map((gateway) => {
    const connections = connectionsTotal / gateways.length
    const amount = requestsPerRun / gateways.length
    return { baseUrl: gateway.baseUrl, connections, amount, requests: createsFor(amount, connections) }
  })

/** Sends `requestsPerRun` creates, split evenly over the gateways, all at once. */
const sendSplit = (loads: ReadonlyArray<CreateLoad>) => Promise.all(loads.map(sendCreates))

/**
 * CPU time (clock ticks) spent so far by every process whose name is one of
 * `names` (Node's main thread names its process `MainThread`).
 */
const cpuTicksOf = (...names: ReadonlyArray<string>): number => {
  let ticks = 0
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      if (!names.some((name) => stat.includes(`(${name})`))) continue
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // The process ended while it was read.
    }
  }
  return ticks
}

// Durable commits, as production runs: the gateways' appends wait for their log's flush.
const server = await startEmbeddedPostgres({ settings: durableServerSettings })
const gateways: Array<ServerProcess> = []
try {
  const store = await server.createDatabase("scale_out")
  const roles = ["api", "expiry"]
  const first = await startGatewayProcess({ name: "gateway-1", dataDir, store, roles })
  gateways.push(first)
  const second = await startGatewayProcess({ name: "gateway-2", dataDir, store, roles })
  gateways.push(second)
  const cpu = { postgres: 0, node: 0 }
  const twoGateways: Workload<ReadonlyArray<CreateLoad>> = {
    name: `gateway: signed creates through 2 processes on one PostgreSQL, ${connectionsTotal} in flight`,
    operationsPerRun: requestsPerRun,
    setup: () => splitLoad([first, second]),
    run: async (loads) => {
      const before = { postgres: cpuTicksOf("postgres"), node: cpuTicksOf("node", "MainThread") }
      await sendSplit(loads)
      cpu.postgres += cpuTicksOf("postgres") - before.postgres
      cpu.node += cpuTicksOf("node", "MainThread") - before.node
    },
  }
  const oneGateway: Workload<ReadonlyArray<CreateLoad>> = {
    name: "the same through 1 process",
    operationsPerRun: requestsPerRun,
    setup: () => splitLoad([first]),
    run: (loads) => sendSplit(loads).then(() => undefined),
  }
  const comparison = await compare(twoGateways, oneGateway, { unit: "requests", counts })
  console.log(formatTable([comparison]))
  const share = cpu.postgres / Math.max(1, cpu.postgres + cpu.node)
  console.log(
    `\nduring the two-gateway runs PostgreSQL took ${(share * 100).toFixed(0)}% of the CPU time of PostgreSQL and Node together (the gateways and the load)`,
  )
  console.log(describeMachine())
} finally {
  for (const gateway of gateways) await gateway.stop()
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
