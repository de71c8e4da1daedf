/**
 * What an operator sees of the service, as a process: an access-log line per
 * request, traces and metrics at an OpenTelemetry collector, Prometheus
 * metrics at `/metrics`, `/health` and `/ready`, all in real time even when a
 * merchant's sandbox test clock runs days ahead.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import parsePrometheusTextFormat from "parse-prometheus-text-format"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { merchantKeys, testConfig, testMerchant } from "./harness.ts"
import { startMerchantEndpoint, waitUntil } from "./merchantEndpoint.ts"
import { type OtlpReceiver, startOtlpReceiver } from "./otlpReceiver.ts"
import { freePort, startService, stopService } from "./processes.ts"
import { postRaw, postSigned } from "./raw.ts"

const dataDir = mkdtempSync(join(tmpdir(), "mizan-operability-"))
const logLines: Array<string> = []
let receiver: OtlpReceiver
let service: ChildProcess
let baseUrl: string

beforeAll(async () => {
  receiver = await startOtlpReceiver()
  const configPath = join(dataDir, "config.json")
  writeFileSync(
    configPath,
    JSON.stringify(
      testConfig({
        merchants: [testMerchant("M1")],
        store: "sqlite:store.db",
        logging: { format: "json", level: "info" },
      }),
    ),
  )
  const port = await freePort()
  baseUrl = `http://127.0.0.1:${port}`
  service = await startService(configPath, port, {
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_METRIC_EXPORT_INTERVAL: "200",
    },
    onLine: (line) => logLines.push(line),
  })
}, 30_000)

afterAll(async () => {
  await stopService(service)
  await receiver.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const m1Key = merchantKeys("M1").privateKey

/** A signed request of M1's to an API or sandbox path (`/sgs/api/...`, `/sgs/sandbox/...`). */
const m1Request = (path: string, bizContent: object) =>
  postSigned(`${baseUrl}${path}`, JSON.stringify({ requestTime: Date.now(), bizContent }), "M1", m1Key)

const createOrder = (merchantOrderNo: string, extra: { readonly notifyUrl?: string } = {}) =>
  m1Request("/sgs/api/acquire2/placeOrder", {
    merchantOrderNo,
    subject: "Hassan card",
    totalAmount: { amount: 10, currency: "AED" },
    paySceneCode: "PAYPAGE",
    ...extra,
  })

/** Creates and pays (through the sandbox) an order of M1's, and checks both were taken. */
const createAndPay = async (merchantOrderNo: string, extra: { readonly notifyUrl?: string } = {}) => {
  expect((await createOrder(merchantOrderNo, extra)).json.head).toMatchObject({ code: "0" })
  expect((await m1Request("/sgs/sandbox/payOrder", { merchantOrderNo })).json.head).toMatchObject({ code: "0" })
}

const advanceM1Clock = (minutes: number) => m1Request("/sgs/sandbox/advanceClock", { minutes })

interface AccessLine {
  readonly message: string
  readonly level: string
  readonly timestamp: string
  readonly annotations: {
    readonly traceCode?: string
    readonly partnerId?: string
    readonly path: string
    readonly code?: string
    readonly status: number
    readonly durationMs: number
  }
}

const accessLines = (): Array<AccessLine> =>
  logLines
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as AccessLine)
    .filter((line) => /^(POST|GET|PUT|DELETE) \//.test(line.message))

const accessLineOf = async (traceCode: string) => {
  await waitUntil(() => accessLines().some((l) => l.annotations.traceCode === traceCode), `access line ${traceCode}`)
  return accessLines().find((l) => l.annotations.traceCode === traceCode) as AccessLine
}

const nearNow = (at: number) => Math.abs(at - Date.now()) < 60_000

describe("the access log", () => {
  it("has one JSON line per request, with its traceCode, partner, path, code, status and duration, and nothing sent", async () => {
    const created = await createOrder("ops-1")
    expect(created.json.head).toMatchObject({ code: "0" })
    const createdLine = await accessLineOf(created.json.head.traceCode as string)
    expect(createdLine).toMatchObject({
      message: "POST /sgs/api/acquire2/placeOrder",
      level: "INFO",
      annotations: { partnerId: "M1", path: "/sgs/api/acquire2/placeOrder", code: "0", status: 200 },
    })
    expect(createdLine.annotations.durationMs).toBeGreaterThan(0)
    expect(nearNow(Date.parse(createdLine.timestamp))).toBe(true)

    const forged = await postRaw(
      `${baseUrl}/sgs/api/acquire2/placeOrder`,
      JSON.stringify({ requestTime: Date.now() }),
      {
        "Partner-Id": "M1",
        sign: "bm90IGEgc2lnbmF0dXJl",
      },
    )
    expect((await accessLineOf(forged.json.head.traceCode as string)).annotations).toMatchObject({
      code: forged.json.head.code,
      status: 200,
    })

    const wrongMethod = await fetch(`${baseUrl}/sgs/api/acquire2/placeOrder`)
    expect(wrongMethod.status).toBe(405)
    await waitUntil(
      () => accessLines().some((l) => l.message === "GET /sgs/api/acquire2/placeOrder" && l.annotations.status === 405),
      "the 405's line",
    )

    // The line names the request, never what it carried: no order number, subject or signature.
    for (const line of logLines) {
      expect(line).not.toContain("ops-1")
      expect(line).not.toContain("Hassan")
      expect(line).not.toContain("bm90IGEgc2lnbmF0dXJl")
    }
  })

  it("is dated in real time when the merchant's test clock runs ten hours ahead", async () => {
    expect((await advanceM1Clock(600)).json.head.code).toBe("0")
    const created = await createOrder("ops-ahead")
    const line = await accessLineOf(created.json.head.traceCode as string)
    expect(nearNow(Date.parse(line.timestamp))).toBe(true)
  })
})

describe("traces at the OpenTelemetry collector", () => {
  it("follow a create from the request through the handler and the command to the store, each with the traceCode", async () => {
    const created = await createOrder("ops-traced")
    const traceCode = created.json.head.traceCode as string
    const spansOf = () => receiver.spans.filter((span) => span.attributes.traceCode === traceCode)
    const names = [
      "Gateway.request",
      "Handler /acquire2/placeOrder",
      "EventSourcing.handleCommand",
      // The order and its orderNo's index, in one write.
      "EventStore.appendMany",
    ]
    await waitUntil(() => names.every((name) => spansOf().some((span) => span.name === name)), "the create's spans")
    // One trace, dated in real time although M1's clock runs ten hours ahead.
    expect(new Set(spansOf().map((span) => span.traceId)).size).toBe(1)
    for (const span of spansOf()) expect(nearNow(Number(BigInt(span.startTimeUnixNano) / 1_000_000n))).toBe(true)
  })

  it("follow a refund through its flow (reserve on the order, then the refund order), each step with the traceCode", async () => {
    const merchantOrderNo = "ops-refunded"
    await createAndPay(merchantOrderNo)
    const refunded = await m1Request("/sgs/api/acquire2/refund/placeOrder", {
      refundMerchantOrderNo: `${merchantOrderNo}-r`,
      originMerchantOrderNo: merchantOrderNo,
      amount: { amount: 2, currency: "AED" },
    })
    expect(refunded.json.head).toMatchObject({ code: "0" })
    const traceCode = refunded.json.head.traceCode as string
    const names = () => receiver.spans.filter((span) => span.attributes.traceCode === traceCode).map((s) => s.name)
    const flowSteps = ["OrderFlows.requestRefund", "OrderFlows.createRefundFromReservation"]
    await waitUntil(() => flowSteps.every((name) => names().includes(name)), "the refund flow's spans")
    expect(names().filter((name) => name === "EventSourcing.handleCommand").length).toBeGreaterThanOrEqual(3)
  })

  it("come with the metrics", async () => {
    const expected = ["mizan_api_requests_total", "mizan_api_request_duration_seconds", "mizan_store_appends_total"]
    await waitUntil(() => expected.every((name) => receiver.metricNames.has(name)), "the metrics at the collector")
  })
})

describe("GET /metrics", () => {
  it("answers Prometheus text: requests by operation and code, their latency, and the store's appends", async () => {
    const before = await createOrder("ops-counted")
    expect(before.json.head).toMatchObject({ code: "0" })
    const response = await fetch(`${baseUrl}/metrics`)
    expect(response.status).toBe(200)
    const families = parsePrometheusTextFormat(await response.text())
    const family = (name: string) => families.find((f) => f.name === name)
    const creates = family("mizan_api_requests_total")?.metrics.find(
      (m) => m.labels?.operation === "/acquire2/placeOrder" && m.labels?.code === "0",
    )
    // ops-1, ops-ahead, ops-traced, ops-refunded and ops-counted.
    expect(Number(creates?.value)).toBe(5)
    expect(family("mizan_api_request_duration_seconds")?.type).toBe("HISTOGRAM")
    const appended = family("mizan_store_appends_total")?.metrics.find((m) => m.labels?.outcome === "appended")
    expect(Number(appended?.value)).toBeGreaterThanOrEqual(4)
    expect(family("mizan_notifications_pending")?.type).toBe("GAUGE")
  })
})

describe("a failed notification attempt", () => {
  it("is logged as a warning when it happens, with the merchant's answer", async () => {
    const endpoint = await startMerchantEndpoint({ failFirstAttempts: true })
    try {
      await createAndPay("ops-notified", { notifyUrl: endpoint.url })
      await waitUntil(
        () =>
          logLines.some((line) => {
            const parsed = line.startsWith("{") ? JSON.parse(line) : undefined
            return (
              parsed?.message === "notification attempt failed" &&
              parsed.level === "WARN" &&
              parsed.annotations.merchantId === "M1" &&
              parsed.annotations.attempt === 1 &&
              parsed.annotations.reason === 'HTTP 500: "not yet"'
            )
          }),
        "the failed attempt's warning",
      )
    } finally {
      await endpoint.close()
    }
  })
})

describe("health", () => {
  it("/health answers while the process lives, /ready says the store answers and the notifier follows the log", async () => {
    const health = await fetch(`${baseUrl}/health`)
    expect(await health.text()).toBe("ok")
    const ready = await fetch(`${baseUrl}/ready`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toMatchObject({ ready: true, store: "ok", notifier: { status: "following" } })
  })
})
