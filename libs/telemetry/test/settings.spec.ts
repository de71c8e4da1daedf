import { it } from "@effect/vitest"
import { Effect } from "effect"
import { TestConsole } from "effect/testing"
import { describe, expect } from "vitest"
import { layerLogging, logSettingsFromEnv, otlpSettingsFromEnv, TelemetrySettingError } from "../src/index.ts"

describe("OTLP settings from the environment", () => {
  it("set up nothing when no collector is named", () => {
    expect(otlpSettingsFromEnv("mizan-gateway", {})).toBeUndefined()
    expect(otlpSettingsFromEnv("mizan-gateway", { OTEL_EXPORTER_OTLP_ENDPOINT: "" })).toBeUndefined()
  })

  it("read the standard variables, with OpenTelemetry's defaults", () => {
    expect(otlpSettingsFromEnv("mizan-gateway", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toEqual({
      endpoint: "http://collector:4318",
      protocol: "http/protobuf",
      sampleRatio: 1,
      spanExportIntervalMs: 5_000,
      metricExportIntervalMs: 60_000,
      serviceName: "mizan-gateway",
    })
    expect(
      otlpSettingsFromEnv("mizan-gateway", {
        OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector.example",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0.1",
        OTEL_BSP_SCHEDULE_DELAY: "200",
        OTEL_METRIC_EXPORT_INTERVAL: "1000",
        OTEL_SERVICE_NAME: "payments-eu-1",
      }),
    ).toEqual({
      endpoint: "https://collector.example",
      protocol: "http/json",
      sampleRatio: 0.1,
      spanExportIntervalMs: 200,
      metricExportIntervalMs: 1_000,
      serviceName: "payments-eu-1",
    })
  })

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, "OTEL_EXPORTER_OTLP_ENDPOINT"],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_PROTOCOL"],
    [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "10%" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ OTEL_TRACES_SAMPLER: "sometimes" }, "OTEL_TRACES_SAMPLER"],
    [{ OTEL_BSP_SCHEDULE_DELAY: "5s" }, "OTEL_BSP_SCHEDULE_DELAY"],
    [{ OTEL_METRIC_EXPORT_INTERVAL: "0" }, "OTEL_METRIC_EXPORT_INTERVAL"],
  ])("refuse a typo, naming the variable: %o", (typo, variable) => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", ...typo }
    expect(() => otlpSettingsFromEnv("mizan-gateway", env)).toThrow(TelemetrySettingError)
    expect(() => otlpSettingsFromEnv("mizan-gateway", env)).toThrow(variable)
  })
})

describe("log settings", () => {
  it("from the environment refuse a value that is not one, naming the variable", () => {
    expect(logSettingsFromEnv({ MIZAN_LOG_FORMAT: "pretty", MIZAN_LOG_LEVEL: "warn" })).toEqual({
      format: "pretty",
      level: "warn",
    })
    expect(() => logSettingsFromEnv({ MIZAN_LOG_FORMAT: "xml" })).toThrow(
      "MIZAN_LOG_FORMAT must be one of json, pretty",
    )
    expect(() => logSettingsFromEnv({ MIZAN_LOG_LEVEL: "verbose" })).toThrow("MIZAN_LOG_LEVEL")
  })

  // it.effect's console is a TestConsole, which keeps the lines; its clock is a TestClock at 1970, so a line dated now
  // was dated by the wall clock and not by the fiber's.
  it.effect("write JSON lines at and above the configured level, with their annotations", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        yield* Effect.logDebug("not written at info")
        yield* Effect.logInfo("written").pipe(Effect.annotateLogs({ traceCode: "3f9c", status: 200 }))
      }).pipe(Effect.provide(layerLogging({ format: "json", level: "info" })))
      const lines = (yield* TestConsole.logLines).map(String)
      expect(lines).toHaveLength(1)
      const line = JSON.parse(lines[0] as string)
      expect(line).toMatchObject({ message: "written", level: "INFO", annotations: { traceCode: "3f9c", status: 200 } })
      expect(Math.abs(Date.parse(line.timestamp) - Date.now())).toBeLessThan(5_000)
    }),
  )
})
