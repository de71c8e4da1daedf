/**
 * Log lines for operators: one line per event, JSON by default (what a log
 * shipper reads) or pretty (what a person reads in a terminal), at the level
 * the configuration names, and dated in real time, always.
 *
 * A merchant's work runs on the merchant's sandbox test clock (so that what
 * it records is on the merchant's time), and Effect's loggers date a line by
 * the running fiber's clock: these loggers date it by the wall clock instead,
 * and the merchant's time appears only where a line says it.
 */
import { Layer, Logger, References } from "effect"

export const logFormats = ["json", "pretty"] as const
export type LogFormat = (typeof logFormats)[number]

export const logLevels = ["debug", "info", "warn", "error"] as const
export type LogLevel = (typeof logLevels)[number]

export interface LogSettings {
  /** `json` unless said otherwise, or `pretty` when the output is a terminal. */
  readonly format?: LogFormat | undefined
  /** Lines below this level are not written; `info` unless said otherwise. */
  readonly level?: LogLevel | undefined
}

/** `logger`, dating every line by the wall clock rather than the running fiber's clock. */
export const withRealTime = <Message, Output>(logger: Logger.Logger<Message, Output>) =>
  Logger.make<Message, Output>((options) => logger.log({ ...options, date: new Date() }))

const effectLevel = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const

/** The format a process uses when its settings name none: pretty for a person at a terminal, JSON for everything else. */
export const defaultLogFormat = (): LogFormat => (process.stdout.isTTY === true ? "pretty" : "json")

/** The logger of `format`, in real time. */
export const loggerOf = (format: LogFormat) =>
  withRealTime(format === "json" ? Logger.consoleJson : Logger.consolePretty())

/** Replaces the default logger with the configured one, and filters by the configured level. */
export const layerLogging = (settings: LogSettings = {}) =>
  Layer.mergeAll(
    Logger.layer([loggerOf(settings.format ?? defaultLogFormat())]),
    Layer.succeed(References.MinimumLogLevel, effectLevel[settings.level ?? "info"]),
  )

/**
 * Reads `MIZAN_LOG_FORMAT` and `MIZAN_LOG_LEVEL` for the processes that take
 * their settings from the environment (the notifier, the tools). A value
 * that is neither is an error that names the variable, never a silent default.
 */
export const logSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): LogSettings => ({
  format: oneOf("MIZAN_LOG_FORMAT", env.MIZAN_LOG_FORMAT, logFormats),
  level: oneOf("MIZAN_LOG_LEVEL", env.MIZAN_LOG_LEVEL, logLevels),
})

/** A setting from the environment that is not one of its values. */
export class TelemetrySettingError extends Error {
  override readonly name = "TelemetrySettingError"
}

export const oneOf = <const Values extends ReadonlyArray<string>>(
  variable: string,
  value: string | undefined,
  values: Values,
): Values[number] | undefined => {
  if (value === undefined || value === "") return undefined
  if (values.includes(value)) return value
  throw new TelemetrySettingError(`${variable} must be one of ${values.join(", ")}, not "${value}"`)
}
