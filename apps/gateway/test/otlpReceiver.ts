/**
 * An OpenTelemetry collector's OTLP/HTTP JSON receiver on loopback, for the
 * tests: it keeps every span and every metric name it is sent.
 */
import { createServer } from "node:http"

export interface ReceivedSpan {
  readonly name: string
  readonly traceId: string
  readonly attributes: Readonly<Record<string, unknown>>
  readonly startTimeUnixNano: string
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT`: what OTEL_EXPORTER_OTLP_ENDPOINT names. */
  readonly endpoint: string
  readonly spans: ReadonlyArray<ReceivedSpan>
  readonly metricNames: ReadonlySet<string>
  readonly close: () => Promise<void>
}

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: string | number
  readonly doubleValue?: number
  readonly boolValue?: boolean
}

const valueOf = (value: OtlpValue): unknown =>
  value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue

interface TracesRequest {
  readonly resourceSpans: ReadonlyArray<{
    readonly scopeSpans: ReadonlyArray<{
      readonly spans: ReadonlyArray<{
        readonly name: string
        readonly traceId: string
        readonly startTimeUnixNano: string
        readonly attributes?: ReadonlyArray<{ readonly key: string; readonly value: OtlpValue }>
      }>
    }>
  }>
}

interface MetricsRequest {
  readonly resourceMetrics: ReadonlyArray<{
    readonly scopeMetrics: ReadonlyArray<{ readonly metrics: ReadonlyArray<{ readonly name: string }> }>
  }>
}

export const startOtlpReceiver = async (): Promise<OtlpReceiver> => {
  const spans: Array<ReceivedSpan> = []
  const metricNames = new Set<string>()
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      if (request.url === "/v1/traces")
        for (const resource of (body as TracesRequest).resourceSpans)
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans)
              spans.push({
                name: span.name,
                traceId: span.traceId,
                startTimeUnixNano: span.startTimeUnixNano,
                attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
              })
      if (request.url === "/v1/metrics")
        for (const resource of (body as MetricsRequest).resourceMetrics)
          for (const scope of resource.scopeMetrics) for (const metric of scope.metrics) metricNames.add(metric.name)
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    metricNames,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
