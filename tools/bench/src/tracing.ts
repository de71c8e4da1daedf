/**
 * `npm run bench -- tracing`: what exporting traces and metrics costs the
 * gateway. Two gateways as `npm start` runs them, each on its own SQLite
 * file: one sends its spans (10% of requests sampled, as
 * `OTEL_TRACES_SAMPLER=traceidratio`, `OTEL_TRACES_SAMPLER_ARG=0.1`) and its
 * metrics to an OpenTelemetry collector on loopback; the other has no
 * collector named, so nothing is set up. Their runs alternate; the ratio is
 * signed creates per second with export against without. Goal: the export
 * costs under 5% (a ratio of 0.95 or more). The collector is a stand-in in
 * this process that reads each export and answers 200.
 *
 * The stores commit at `synchronous=normal`: what is measured is the CPU
 * that tracing takes, and two processes waiting on fsync of their own files
 * on one disk made runs of the same gateway differ by 20%. `BENCH_AA=1`
 * names no collector for either gateway, which shows the noise floor.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createsFor, type ServerProcess, type SignedRequest, sendCreates, startGatewayProcess } from "./gatewayLoad.ts"
import { compare, describeMachine, formatTable, type RunCounts, type Workload } from "./harness.ts"

const requestsPerRun = 2_000
const concurrentRequests = 32
const counts: RunCounts = { warmupRuns: 1, measuredRuns: 7 }
const sampleRatio = Number(process.env.BENCH_SAMPLE_RATIO ?? 0.1)

const dataDir = mkdtempSync(join(tmpdir(), "mizan-bench-tracing-"))
let exports = 0
const collector = createServer((request, response) => {
  request.resume()
  request.on("end", () => {
    exports++
    response.writeHead(200, { "content-type": "application/x-protobuf" }).end()
  })
})
await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
const address = collector.address()
const collectorUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`

const gateways: Array<ServerProcess> = []
try {
  const exporting = await startGatewayProcess({
    name: "exporting",
    dataDir,
    store: "sqlite:exporting.db?synchronous=normal",
    env: process.env.BENCH_AA
      ? {}
      : {
          OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
          OTEL_TRACES_SAMPLER: "traceidratio",
          OTEL_TRACES_SAMPLER_ARG: String(sampleRatio),
          OTEL_BSP_SCHEDULE_DELAY: "1000",
          OTEL_METRIC_EXPORT_INTERVAL: "5000",
        },
  })
  gateways.push(exporting)
  const plain = await startGatewayProcess({ name: "plain", dataDir, store: "sqlite:plain.db?synchronous=normal" })
  gateways.push(plain)
  const load = (gateway: ServerProcess): Workload<ReadonlyArray<SignedRequest>> => ({
    name:
      gateway === exporting
        ? `gateway: signed creates, traces (${sampleRatio * 100}% sampled) and metrics exported over OTLP`
        : "the same with no collector named",
    operationsPerRun: requestsPerRun,
    setup: () => createsFor(requestsPerRun, concurrentRequests),
    run: (requests) =>
      sendCreates({ baseUrl: gateway.baseUrl, connections: concurrentRequests, amount: requestsPerRun, requests }),
  })
  const comparison = await compare(load(exporting), load(plain), { unit: "requests", goalRatio: 0.95, counts })
  console.log(formatTable([comparison]))
  console.log(`\nthe collector received ${exports} exports`)
  console.log(describeMachine())
} finally {
  for (const gateway of gateways) await gateway.stop()
  collector.close()
  rmSync(dataDir, { recursive: true, force: true })
}
