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
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { generateKeyPair, sign } from "@mizan/protocol"
import { startEmbeddedPostgres } from "@mizan/store-postgres/testing"
import autocannon from "autocannon"
import { compare, describeMachine, formatTable, type RunCounts, type Workload } from "./harness.ts"

const requestsPerRun = 2_000
const connectionsTotal = 32
const counts: RunCounts = { warmupRuns: 1, measuredRuns: 3 }

const dataDir = mkdtempSync(join(tmpdir(), "mizan-bench-scale-out-"))
const merchant = generateKeyPair()

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const startGateway = async (name: string, store: string): Promise<{ child: ChildProcess; port: number }> => {
  const port = await freePort()
  const configPath = join(dataDir, `${name}.json`)
  writeFileSync(
    configPath,
    JSON.stringify({
      mode: "sandbox",
      store,
      roles: ["api", "expiry"],
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
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, MIZAN_CONFIG: configPath, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  })
  for (let tries = 0; tries < 300; tries++) {
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, port }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${name} did not start`)
}

let serial = 0
/** One run's requests, signed before the clock starts (the merchant's signing is not the gateways' work). */
const signedCreates = (count: number) =>
  Array.from({ length: count }, () => {
    const body = JSON.stringify({
      requestTime: Date.now(),
      bizContent: {
        merchantOrderNo: `scale-${process.pid}-${++serial}`,
        subject: "Bench order",
        totalAmount: { amount: 10.5, currency: "AED" },
        paySceneCode: "PAYPAGE",
      },
    })
    return { body, sign: sign(body, merchant.privateKey) }
  })

/** Sends `requestsPerRun` creates, split evenly over the gateways on `ports`, all at once. */
const sendSplit = async (ports: ReadonlyArray<number>) => {
  const share = requestsPerRun / ports.length
  const connections = connectionsTotal / ports.length
  await Promise.all(
    ports.map(async (port) => {
      // autocannon builds one request more per connection than it sends.
      const requests = signedCreates(share + connections)
      let next = 0
      let failed = 0
      const result = await autocannon({
        url: `http://127.0.0.1:${port}`,
        connections,
        amount: share,
        sampleInt: 5,
        requests: [
          {
            method: "POST",
            path: "/sgs/api/acquire2/placeOrder",
            setupRequest: (request) => {
              const signed = requests[next++]
              if (signed === undefined) throw new Error("more requests asked for than signed")
              return {
                ...request,
                body: signed.body,
                headers: { "content-type": "application/json", "partner-id": "BENCH", sign: signed.sign },
              }
            },
            onResponse: (_status, body) => {
              if (!body.includes('"code":"0"')) failed++
            },
          },
        ],
      })
      if (failed > 0 || result.errors > 0 || result.non2xx > 0)
        throw new Error(`port ${port}: ${failed} refused, ${result.errors} errors, ${result.non2xx} not 2xx`)
    }),
  )
}

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

const server = await startEmbeddedPostgres()
const gateways: Array<ChildProcess> = []
try {
  const store = await server.createDatabase("scale_out")
  const first = await startGateway("gateway-1", store)
  const second = await startGateway("gateway-2", store)
  gateways.push(first.child, second.child)
  const cpu = { postgres: 0, node: 0 }
  const twoGateways: Workload = {
    name: `gateway: signed creates through 2 processes on one PostgreSQL, ${connectionsTotal} in flight`,
    operationsPerRun: requestsPerRun,
    run: async () => {
      const before = { postgres: cpuTicksOf("postgres"), node: cpuTicksOf("node", "MainThread") }
      await sendSplit([first.port, second.port])
      cpu.postgres += cpuTicksOf("postgres") - before.postgres
      cpu.node += cpuTicksOf("node", "MainThread") - before.node
    },
  }
  const oneGateway: Workload = {
    name: "the same through 1 process",
    operationsPerRun: requestsPerRun,
    run: () => sendSplit([first.port]),
  }
  const comparison = await compare(twoGateways, oneGateway, { unit: "requests", counts })
  console.log(formatTable([comparison]))
  const share = cpu.postgres / Math.max(1, cpu.postgres + cpu.node)
  console.log(
    `\nduring the two-gateway runs PostgreSQL took ${(share * 100).toFixed(0)}% of the CPU time of PostgreSQL and Node together (the gateways and the load)`,
  )
  console.log(describeMachine())
} finally {
  for (const child of gateways) {
    child.kill("SIGINT")
    await new Promise((resolve) => child.once("exit", resolve))
  }
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
