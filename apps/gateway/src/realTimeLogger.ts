/**
 * Log lines carry real time, always. A merchant's work runs on the
 * merchant's sandbox clock (so that what it records is on the merchant's
 * time), and Effect's loggers date a line by the running fiber's clock: these
 * loggers date it by the wall clock instead, and the merchant's time appears
 * only where a line says it.
 */
import { Logger } from "effect"

/** `logger`, dating every line by the wall clock rather than the running fiber's clock. */
export const withRealTime = <Message, Output>(logger: Logger.Logger<Message, Output>) =>
  Logger.make<Message, Output>((options) => logger.log({ ...options, date: new Date() }))

/** Replaces the default logger with one that dates its lines by real time. */
export const layerRealTimeLogger = Logger.layer([withRealTime(Logger.defaultLogger)])
