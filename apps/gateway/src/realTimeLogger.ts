/**
 * Log lines carry real time, always. A merchant's work runs on the
 * merchant's sandbox clock (so that what it records is on the merchant's
 * time), and Effect's loggers date a line by the running fiber's clock: this
 * logger dates it by the wall clock instead, and the merchant's time appears
 * only where a line says it.
 */
import { Logger } from "effect"

export const realTimeLogger = Logger.make((options) => Logger.defaultLogger.log({ ...options, date: new Date() }))

/** Replaces the default logger with the real-time one. */
export const layerRealTimeLogger = Logger.layer([realTimeLogger])
