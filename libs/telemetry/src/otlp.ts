/**
 * Traces and metrics over OpenTelemetry's OTLP, with Effect's own exporters,
 * configured by the standard OpenTelemetry environment variables:
 *
 * - `OTEL_EXPORTER_OTLP_ENDPOINT`: the collector's base URL
 *   (`http://collector:4318`); `/v1/traces` and `/v1/metrics` are added.
 *   Unset, nothing is exported and nothing is set up.
 * - `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf` (the default) or `http/json`.
 * - `OTEL_TRACES_SAMPLER` = `traceidratio` or `parentbased_traceidratio` with
 *   `OTEL_TRACES_SAMPLER_ARG` = the share of requests traced (`0.1`); every
 *   request is traced otherwise. The decision is taken once per trace, at its
 *   root, and the whole trace follows it.
 * - `OTEL_BSP_SCHEDULE_DELAY` and `OTEL_METRIC_EXPORT_INTERVAL`: how often
 *   spans and metrics are sent, in milliseconds (5 s and 60 s by default).
 * - `OTEL_SERVICE_NAME` overrides the process's own name.
 */
import { Duration, Effect, Layer, Option, Tracer } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpExporter, OtlpMetrics, OtlpSerialization, OtlpTracer } from "effect/observability"
import { oneOf, TelemetrySettingError } from "./logging.ts"

export interface OtlpSettings {
  readonly endpoint: string
  readonly protocol: "http/protobuf" | "http/json"
  /** The share of traces kept, from 0 to 1. */
  readonly sampleRatio: number
  readonly spanExportIntervalMs: number
  readonly metricExportIntervalMs: number
  readonly serviceName: string
}

const protocols = ["http/protobuf", "http/json"] as const
const samplers = ["always_on", "parentbased_always_on", "traceidratio", "parentbased_traceidratio"] as const

const millisecondsOf = (variable: string, value: string | undefined, otherwise: number): number => {
  if (value === undefined || value === "") return otherwise
  const ms = Number(value)
  if (!Number.isInteger(ms) || ms <= 0)
    throw new TelemetrySettingError(`${variable} must be a whole number of milliseconds above 0, not "${value}"`)
  return ms
}

const ratioOf = (sampler: string | undefined, argument: string | undefined): number => {
  if (sampler === undefined || !sampler.endsWith("traceidratio")) return 1
  const ratio = Number(argument ?? "1")
  if (argument === "" || !Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new TelemetrySettingError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, not "${argument}"`)
  return ratio
}

/** The OTLP settings the environment gives, or undefined when no collector is named. */
export const otlpSettingsFromEnv = (
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): OtlpSettings | undefined => {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT
  if (endpoint === undefined || endpoint === "") return undefined
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol))
    throw new TelemetrySettingError(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, not "${endpoint}"`)
  const sampler = oneOf("OTEL_TRACES_SAMPLER", env.OTEL_TRACES_SAMPLER, samplers)
  return {
    endpoint: endpoint.replace(/\/+$/, ""),
    protocol: oneOf("OTEL_EXPORTER_OTLP_PROTOCOL", env.OTEL_EXPORTER_OTLP_PROTOCOL, protocols) ?? "http/protobuf",
    sampleRatio: ratioOf(sampler, env.OTEL_TRACES_SAMPLER_ARG),
    spanExportIntervalMs: millisecondsOf("OTEL_BSP_SCHEDULE_DELAY", env.OTEL_BSP_SCHEDULE_DELAY, 5_000),
    metricExportIntervalMs: millisecondsOf("OTEL_METRIC_EXPORT_INTERVAL", env.OTEL_METRIC_EXPORT_INTERVAL, 60_000),
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
  }
}

/** The wall clock in nanoseconds, as spans are dated. */
const realTimeNanos = (): bigint => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n

/**
 * `tracer`, with two decisions of its own: a trace is kept or dropped as a
 * whole, at its root, by `sampleRatio`; and spans are dated by the wall
 * clock. Work on a merchant's sandbox test clock would otherwise date its
 * spans on the merchant's time, and an operator's trace would jump by days.
 */
export const sampledInRealTime = (tracer: Tracer.Tracer, sampleRatio: number): Tracer.Tracer =>
  Tracer.make({
    ...tracer,
    span(options) {
      const isRoot = Option.isNone(options.parent)
      const sampled = isRoot ? options.sampled && Math.random() < sampleRatio : options.sampled
      const span = tracer.span({ ...options, sampled, startTime: realTimeNanos() })
      const end = span.end.bind(span)
      return Object.assign(span, {
        end: (_endTime: bigint, exit: Parameters<typeof end>[1]) => end(realTimeNanos(), exit),
      })
    },
  })

/** Exports traces and metrics to the collector the settings name. */
export const layerOtlp = (settings: OtlpSettings) => {
  const resource = { serviceName: settings.serviceName }
  const tracer = Layer.effect(
    Tracer.Tracer,
    Effect.map(
      OtlpTracer.make({
        url: `${settings.endpoint}/v1/traces`,
        resource,
        exportInterval: Duration.millis(settings.spanExportIntervalMs),
      }),
      (otlp) => sampledInRealTime(otlp, settings.sampleRatio),
    ),
  )
  const metrics = OtlpMetrics.layer({
    url: `${settings.endpoint}/v1/metrics`,
    resource,
    exportInterval: Duration.millis(settings.metricExportIntervalMs),
  })
  return Layer.mergeAll(tracer, metrics).pipe(
    Layer.provideMerge(OtlpExporter.layerFlusher),
    Layer.provide(settings.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(FetchHttpClient.layer),
  )
}

/** OTLP export when the environment names a collector; nothing at all otherwise. */
export const layerOtlpFromEnv = (
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): Layer.Layer<OtlpExporter.Flusher> | Layer.Layer<never> => {
  const settings = otlpSettingsFromEnv(serviceName, env)
  return settings === undefined ? Layer.empty : layerOtlp(settings)
}
